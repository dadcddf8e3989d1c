import Foundation
import OrderedCollections
import ReelCore
import ReelLaunch
import ReelSplash

/// How `reel splash check` prints a report: one line for people, one JSON object for scripts.
enum SplashCheckOutput {
    static func json(_ asset: String, _ report: SplashAssetReport) -> JSONValue {
        .object([
            "asset": .string(asset),
            "frames": report.frames.map { .int($0) } ?? .null,
            "fps": .optional(report.fps),
            "seconds": .optional(report.seconds),
            "bytes": .int(report.bytes),
            "width": report.width.map { .int($0) } ?? .null,
            "height": report.height.map { .int($0) } ?? .null,
            "cost": report.cost.map { cost in
                .object(["layers": count(cost.layers), "shapes": count(cost.shapes), "buffers": count(cost.buffers),
                         "paintedCanvases": .double((cost.paintedCanvases * 100).rounded() / 100), "imagePixels": count(cost.imagePixels),
                         "strokeWidth": count(cost.strokeWidth)])
            } ?? .null,
            "renderMs": report.renderMs.map { .object(["p50": .optional($0.p50), "p95": .optional($0.p95), "max": .optional($0.max)]) } ?? .null,
            "renderedFrames": report.renderedFrames.map { .int($0) } ?? .null,
            "check": report.usage.map { .object(["seconds": .double(($0.seconds * 1000).rounded() / 1000),
                                                  "cpuSeconds": .double(($0.cpuSeconds * 1000).rounded() / 1000),
                                                  "maxRSSBytes": .int($0.maxRSSBytes)]) } ?? .null,
            "valid": .bool(report.isValid),
            "problems": .array(report.problems.map { .string($0) }),
        ])
    }

    /// A count that copies may have multiplied past any integer.
    private static func count(_ value: Double) -> JSONValue {
        value.isFinite && value < 9e15 ? .int(Int(value.rounded())) : .double(value.isFinite ? value : .greatestFiniteMagnitude)
    }

    /// "snow.json: 60 frames, 30 fps, 2.00 s, 41.2 KB, 540x960, render p50 0.81 ms p95 1.02 ms max 1.4 ms: valid".
    static func line(_ asset: String, _ report: SplashAssetReport) -> String {
        var figures: [String] = []
        if let frames = report.frames { figures.append("\(frames) frames") }
        if let fps = report.fps { figures.append("\(JSONWriter.number(fps)) fps") }
        if let seconds = report.seconds { figures.append(String(format: "%.2f s", seconds)) }
        figures.append(Human.bytes(Int64(report.bytes)))
        if let width = report.width, let height = report.height { figures.append("\(width)x\(height)") }
        if let render = report.renderMs {
            figures.append("render p50 \(Human.ms(render.p50)) p95 \(Human.ms(render.p95)) max \(Human.ms(render.max))")
        }
        if let usage = report.usage {
            figures.append(String(format: "checked in %.2f s, ", usage.seconds) + Human.bytes(Int64(usage.maxRSSBytes)))
        }
        let verdict = report.isValid ? "valid" : "INVALID: " + report.problems.joined(separator: "; ")
        return "\(asset): \(figures.joined(separator: ", ")): \(verdict)"
    }
}
