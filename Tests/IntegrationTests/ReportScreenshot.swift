import Foundation
import ReelCore
import ReelFeed
import ReelTestSupport
import Testing

/// A report page drawn by headless Chromium into a PNG, decoded by ffmpeg into RGB and measured:
/// how many grey levels and how much ink it has, and how many pixels of the colours only the
/// report's charts draw. Missing Chromium or ffmpeg fails the test (`make deps` installs them).
struct ReportScreenshot {
    var greyLevels: Int
    var inkedShare: Double
    /// Pixels near each mark's colour, by the mark's name.
    var marks: [String: Int]

    /// Colours only the report's SVG draws: an active card, the second run's bars, bytes played
    /// from the network (docs/report.md).
    static let markColours: [(String, (Int, Int, Int))] = [
        ("active", (0x22, 0xc5, 0x5e)), ("second run", (0xea, 0x58, 0x0c)), ("playback from the network", (0xc2, 0x41, 0x0c)),
    ]

    /// Takes and measures the screenshot; the child processes and the pixel loop (twelve million
    /// bytes) run on threads of their own, never on the cooperative pool.
    static func take(_ page: URL, in folder: URL, width: Int = 1240, height: Int = 3200) async throws -> ReportScreenshot {
        let chromium = try #require(Tool.find("chromium"), "chromium is not installed: `make deps` installs it")
        let ffmpeg = try #require(Tool.find("ffmpeg"), "ffmpeg is not installed: `make deps` installs it")
        let shot = folder.appendingPathComponent("\(page.deletingPathExtension().lastPathComponent).png")
        let browser = try await Tool.run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(folder.appendingPathComponent("chromium-profile").path)", "--window-size=\(width),\(height)",
            "--screenshot=\(shot.path)", page.absoluteString,
        ], in: folder)
        try #require(browser.status == 0 && FileManager.default.fileExists(atPath: shot.path),
                     "chromium exited \(browser.status) without a screenshot: \(browser.output.suffix(2000))")
        let raw = folder.appendingPathComponent("screenshot.rgb")
        let decode = try await Tool.run(ffmpeg, ["-nostdin", "-v", "error", "-i", shot.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", raw.path],
                                        in: folder)
        try #require(decode.status == 0, "ffmpeg could not decode the screenshot: \(decode.output)")
        let (count, screenshot) = try await BlockingPool.shared.run { () -> (Int, ReportScreenshot) in
            let pixels = try [UInt8](Data(contentsOf: raw))
            return (pixels.count, measure(pixels, width: width, height: height))
        }
        try #require(count == width * height * 3, "the screenshot is not \(width)x\(height): \(count) bytes of RGB")
        return screenshot
    }

    /// Grey levels, ink and mark colours of an RGB24 picture.
    private static func measure(_ pixels: [UInt8], width: Int, height: Int) -> ReportScreenshot {
        var greys = Set<UInt8>(), inked = 0
        var marks: [String: Int] = [:]
        for index in stride(from: 0, to: pixels.count - 2, by: 3) {
            let (r, g, b) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
            greys.insert(UInt8((r * 299 + g * 587 + b * 114) / 1000))
            if r < 240 || g < 240 || b < 240 { inked += 1 }
            for (name, colour) in markColours where abs(r - colour.0) + abs(g - colour.1) + abs(b - colour.2) <= 12 {
                marks[name, default: 0] += 1
            }
        }
        return ReportScreenshot(greyLevels: greys.count, inkedShare: Double(inked) / Double(width * height), marks: marks)
    }
}
