import Foundation
import ReelCore
import ReelMedia
import ReelTestSupport
import Testing

/// A rectangle of pixels.
struct PixelBox: Equatable, CustomStringConvertible {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var description: String { "[\(x), \(y), \(width), \(height)]" }
}

/// A folder of its own for a test, removed when the value goes.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-view-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Runs the built viewer from the package root, as `make view` does.
enum Viewer {
    struct Run {
        let json: JSONValue
        let stderr: String
    }

    /// Runs `reel-view` with `arguments` (to its `--exit-after`) and parses its `--json`.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        let result = try await ChildProcess.run(PackagePaths.viewBinary, arguments, environment: environment, directory: PackagePaths.root,
                                                timeout: .seconds(120))
        try #require(result.status == 0, "reel-view \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        let json = try JSONParser.parse(result.stdout)
        return Run(json: json, stderr: result.stderr)
    }

    /// What a run under Xvfb left: its summary and its events.
    struct XRun {
        let summary: JSONValue
        let events: [JSONValue]
    }

    /// Runs the viewer under Xvfb (`xvfb-run -a`, a free display) with `arguments`, then the
    /// shell `steps` (xdotool's input, waits on the window's title), then `q`; fails when a step
    /// fails or times out, or the viewer exits non-zero.
    static func underXvfb(arguments: String, steps: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> XRun {
        let folder = try Scratch()
        let script = folder.path("steps.sh")
        try """
            set -euo pipefail
            view=$1; out=$2
            "$view" \(arguments) --exit-after 90 --json --events "$out/events.jsonl" > "$out/summary.json" 2> "$out/stderr.txt" &
            pid=$!
            \(steps)
            xdotool key q
            wait $pid
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xvfb-run"), [
            "-a", "-s", "-screen 0 600x1000x24", "bash", script, PackagePaths.viewBinary.path, folder.url.path,
        ], directory: PackagePaths.root, timeout: .seconds(150))
        let stderr = (try? String(contentsOfFile: folder.path("stderr.txt"), encoding: .utf8)) ?? ""
        try #require(result.status == 0, "\(result.output)\n\(stderr)", sourceLocation: sourceLocation)
        let summary = try JSONParser.parse(try String(contentsOfFile: folder.path("summary.json"), encoding: .utf8))
        let events = try String(contentsOfFile: folder.path("events.jsonl"), encoding: .utf8).split(separator: "\n")
            .map { try JSONParser.parse(String($0)) }
        return XRun(summary: summary, events: events)
    }

    /// Checks that a screenshot's record has card `id` at `rect` showing `shows`.
    static func expectCard(_ id: String, in shot: JSONValue, at rect: PixelBox, shows: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let cards = try #require(shot["cards"]?.array, sourceLocation: sourceLocation)
        let card = try #require(cards.first { $0["id"]?.string == id }, "\(id) is not in the screenshot: \(cards)", sourceLocation: sourceLocation)
        let drawn = (card["rect"]?.array ?? []).compactMap(\.number).map(Int.init)
        #expect(drawn == [rect.x, rect.y, rect.width, rect.height], "\(id) drawn at \(drawn), laid out at \(rect)", sourceLocation: sourceLocation)
        #expect(card["shows"]?.string == shows, "\(id) shows \(card["shows"] ?? .null), not \(shows)", sourceLocation: sourceLocation)
    }
}

/// Mean colours of a grid of cells over part of a picture: what two pictures of the same thing
/// at different sizes and scalers still agree on.
enum Cells {
    /// A part of a rectangle, in fractions of its width and height.
    struct Region {
        var x0: Double
        var y0: Double
        var x1: Double
        var y1: Double
    }

    /// The cells' mean red, green and blue over `region` of `box` (default: the whole picture),
    /// `columns` x `rows` of them; with 4 channels, colours are composited over `background`.
    static func of(rgba pixels: [UInt8], width: Int, height: Int, channels: Int, box: PixelBox? = nil, region: Region,
                   columns: Int, rows: Int, background: Double = 0) -> [Double] {
        let box = box ?? PixelBox(x: 0, y: 0, width: width, height: height)
        var cells: [Double] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let fx0 = region.x0 + (region.x1 - region.x0) * Double(column) / Double(columns)
                let fx1 = region.x0 + (region.x1 - region.x0) * Double(column + 1) / Double(columns)
                let fy0 = region.y0 + (region.y1 - region.y0) * Double(row) / Double(rows)
                let fy1 = region.y0 + (region.y1 - region.y0) * Double(row + 1) / Double(rows)
                let left = max(0, box.x + Int(fx0 * Double(box.width))), right = min(width, box.x + Int(fx1 * Double(box.width)))
                let top = max(0, box.y + Int(fy0 * Double(box.height))), bottom = min(height, box.y + Int(fy1 * Double(box.height)))
                var sums = [0.0, 0.0, 0.0]
                var count = 0.0
                for y in top..<max(top, bottom) {
                    for x in left..<max(left, right) {
                        let index = (y * width + x) * channels
                        let alpha = channels == 4 ? Double(pixels[index + 3]) / 255 : 1
                        for channel in 0..<3 {
                            sums[channel] += Double(pixels[index + channel]) * alpha + background * (1 - alpha)
                        }
                        count += 1
                    }
                }
                cells += sums.map { count > 0 ? $0 / count : 0 }
            }
        }
        return cells
    }

    /// Mean absolute difference of two grids, 0-255.
    static func distance(_ a: [Double], _ b: [Double]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(a.count)
    }
}

/// A screenshot the viewer wrote, decoded, and what it should show where.
struct Screenshot {
    let pixels: [UInt8]
    let width: Int
    let height: Int
    let path: String

    /// The part of a playing card compared: clear of the HUD panel at the top, the burnt-in
    /// clock and the card's HUD line at the bottom.
    static let videoRegion = Cells.Region(x0: 0.1, y0: 0.15, x1: 0.9, y1: 0.7)

    init(path: String) throws {
        self.path = path
        let picture = try Picture.image([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), name: path)
        pixels = try picture.rgba()
        width = picture.width
        height = picture.height
    }

    func cells(in box: PixelBox, region: Cells.Region, columns: Int, rows: Int) -> [Double] {
        Cells.of(rgba: pixels, width: width, height: height, channels: 4, box: box, region: region, columns: columns, rows: rows)
    }

    /// The card at `box` shows a frame of `sample` that is not its first: the video plays.
    func expectPlaying(_ sample: String, in box: PixelBox, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let frames = try await Reference.frames(of: sample)
        let seen = cells(in: box, region: Self.videoRegion, columns: 8, rows: 10)
        let distances = frames.map { Cells.distance(seen, Cells.of(rgba: $0, width: Reference.width, height: Reference.height, channels: 3,
                                                                  region: Self.videoRegion, columns: 8, rows: 10)) }
        let best = try #require(distances.enumerated().min { $0.element < $1.element }, sourceLocation: sourceLocation)
        #expect(best.element < 12, "\(path): the card at \(box) matches no frame of \(sample): best \(best.offset) at \(best.element)",
                sourceLocation: sourceLocation)
        #expect(best.offset >= 10, "\(path): the card at \(box) shows \(sample)'s frame \(best.offset): it does not play",
                sourceLocation: sourceLocation)
        // Another sample's frames are farther.
        let other = sample == "s01" ? "s02" : "s01"
        let others = try await Reference.frames(of: other).map {
            Cells.distance(seen, Cells.of(rgba: $0, width: Reference.width, height: Reference.height, channels: 3, region: Self.videoRegion,
                                          columns: 8, rows: 10))
        }
        #expect((others.min() ?? 0) > best.element * 2, "\(path): \(other) matches the card at \(box) about as well as \(sample)",
                sourceLocation: sourceLocation)
    }

    /// The card at `box`, on screen down to `bottom`, shows `sample`'s thumbnail.
    func expectThumbnail(_ sample: String, in box: PixelBox, visibleTo bottom: Int,
                         sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let visible = Double(min(box.y + box.height, bottom) - box.y) / Double(box.height)
        try #require(visible > 0.02, "the card at \(box) is not on screen", sourceLocation: sourceLocation)
        let region = Cells.Region(x0: 0.1, y0: 0, x1: 0.9, y1: visible)
        let thumbnail = try await Reference.thumbnail(of: sample)
        let expected = Cells.of(rgba: thumbnail, width: Reference.width, height: Reference.height, channels: 3, region: region, columns: 8, rows: 2)
        let distance = Cells.distance(cells(in: box, region: region, columns: 8, rows: 2), expected)
        #expect(distance < 14, "\(path): the card at \(box) does not show \(sample)'s thumbnail (distance \(distance))",
                sourceLocation: sourceLocation)
    }
}

/// Samples decoded by the ffmpeg command-line tool, small (90x160, area-averaged): what the
/// viewer's pictures are compared with.
enum Reference {
    static let width = 90
    static let height = 160

    /// Every frame of a sample's 540x960 rendition (or its only one).
    static func frames(of sample: String) async throws -> [[UInt8]] {
        let entry = try #require(try SampleIndex.load().samples.first { $0.name == sample }, "no sample \(sample)")
        let rendition = try #require(entry.renditions.count == 1 ? entry.renditions.first : entry.renditions.first { $0.width == 540 })
        return try await decode(["-allowed_extensions", "ALL", "-i", PackagePaths.samples.appendingPathComponent(rendition.playlist).path])
    }

    /// A sample's thumbnail image.
    static func thumbnail(of sample: String) async throws -> [UInt8] {
        let frames = try await decode(["-i", PackagePaths.samples.appendingPathComponent("images/thumbs/\(sample).jpg").path])
        return try #require(frames.first)
    }

    private static func decode(_ input: [String]) async throws -> [[UInt8]] {
        let folder = try Scratch()
        let out = folder.path("frames.rgb")
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-nostdin", "-v", "error"] + input + [
            "-map", "0:v:0", "-vf", "scale=\(width):\(height):flags=area", "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", out,
        ])
        try #require(result.status == 0, "ffmpeg: \(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let size = width * height * 3
        try #require(bytes.count >= size && bytes.count % size == 0, "ffmpeg gave \(bytes.count) bytes")
        return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<$0 + size]) }
    }
}
