import Foundation
import ReelCore
import ReelEngine
import ReelFeed

/// What the HUD's top panel shows: the session's totals as the engine counts them (at the end
/// they are the summary's) and the UI's own frame time.
struct HUDFigures: Sendable, Equatable, Codable {
    var cdnBytes: Int64 = 0
    var cdnRequests = 0
    var bytesPlayed: Int64 = 0
    var decodersCreated = 0
    var decodersReused = 0
    var stalls = 0
    var plays = 0
    /// The UI's frame time over the last two seconds, milliseconds.
    var uiFrameP99Ms = 0.0
    /// The sound: "off", "on", "on: s0/0" (the short heard) or "none" (no audio device).
    var sound = "off"

    init(_ totals: FeedSnapshot.Totals, uiFrameP99Ms: Double) {
        cdnBytes = totals.networkBytes
        cdnRequests = totals.networkRequests
        bytesPlayed = totals.bytesPlayed
        decodersCreated = totals.decoders.created
        decodersReused = totals.decoders.reused
        stalls = totals.stalls
        plays = totals.plays
        self.uiFrameP99Ms = uiFrameP99Ms
    }

    /// The panel's lines.
    var lines: [String] {
        [
            "CDN \(Self.megabytes(cdnBytes)) in \(cdnRequests) requests · played \(Self.megabytes(bytesPlayed))",
            "decoders \(decodersCreated) created, \(decodersReused) reused · plays \(plays) · stalls \(stalls)",
            String(format: "UI frame %.1f ms p99", uiFrameP99Ms) + " · sound \(sound) (m)",
        ]
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.2f MB", Double(bytes) / 1_000_000) }
}

/// The UI's frame times: every frame's work (input, drawing, capture) in a distribution for the
/// report, the last two seconds' for the HUD, and the slowest frames with their times.
struct FrameTimes {
    private(set) var all = Distribution()
    private var recent: [Double] = []
    private var next = 0
    static let recentCount = 120
    /// Frames over `slowMs`, when (seconds on the screen's clock) and how long: the first 20.
    private(set) var slow: [(time: Double, ms: Double)] = []
    static let slowMs = 50.0

    mutating func record(_ milliseconds: Double, at time: Double) {
        all.record(milliseconds)
        if milliseconds > Self.slowMs, slow.count < 20 { slow.append((time, milliseconds)) }
        if recent.count < Self.recentCount {
            recent.append(milliseconds)
        } else {
            recent[next] = milliseconds
            next = (next + 1) % Self.recentCount
        }
    }

    /// The 99th percentile of the last two seconds' frames.
    var recentP99: Double {
        guard !recent.isEmpty else { return 0 }
        let sorted = recent.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.down)))]
    }
}

/// Draws the HUD's top panel.
struct HUDPainter {
    let screen: SDLScreen
    let text: TextRenderer

    /// Draws the panel `top` points down the screen (under a top bar).
    func draw(_ figures: HUDFigures, viewport: Viewport, top: Double = 0) {
        let lines = figures.lines
        let lineHeight = viewport.pixels(15), pad = viewport.pixels(6)
        let panel = viewport.rect(0, top, viewport.points.width, 0)
        let box = PixelRect(x: panel.x, y: panel.y, w: panel.w, h: lineHeight * Int32(lines.count) + 2 * pad)
        screen.fill(box, .hud)
        for (index, line) in lines.enumerated() {
            text.draw(line, x: box.x + pad, y: box.y + pad + Int32(index) * lineHeight, size: 11, weight: .mono, color: .white,
                      maxWidth: box.w - 2 * pad)
        }
    }
}
