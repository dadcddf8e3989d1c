import OrderedCollections
import ReelCore

/// What checking one splash asset found: its figures (nil where it did not get that far), what a
/// frame costs, the render time of each frame on this machine, what the check's process used,
/// and every problem. Valid when there is none.
public struct SplashAssetReport: Sendable, Hashable {
    public var bytes: Int
    public var frames: Int?
    public var fps: Double?
    public var seconds: Double?
    public var width: Int?
    public var height: Int?
    /// What a frame costs, counted from the document's structure.
    public var cost: LottieCost?
    /// Render time per frame (CPU time of the drawing thread), in milliseconds; nil when no
    /// frame was rendered.
    public var renderMs: Percentiles?
    /// Frames rlottie drew before the check ended (all of them, unless it stopped early).
    public var renderedFrames: Int?
    /// What the check's child process used; nil for a check in this process.
    public var usage: SplashCheckUsage?
    public var problems: [String] = []

    public var isValid: Bool { problems.isEmpty }

    /// rlottie drew every frame without crashing or running out of bounds: the asset is safe to
    /// draw in this process, even when it breaks a limit (fps, length, bytes, render time).
    public var drewEveryFrame: Bool {
        guard let frames, let renderedFrames else { return false }
        return renderedFrames >= frames
    }

    public init(bytes: Int) {
        self.bytes = bytes
    }
}

/// What a check's child process used, from `wait4`.
public struct SplashCheckUsage: Sendable, Hashable {
    /// Wall-clock seconds from start to exit.
    public var seconds: Double
    /// User and system CPU seconds.
    public var cpuSeconds: Double
    /// Largest resident set, in bytes.
    public var maxRSSBytes: Int

    public init(seconds: Double, cpuSeconds: Double, maxRSSBytes: Int) {
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
        self.maxRSSBytes = maxRSSBytes
    }
}

extension SplashAssetReport {
    /// The report as the check's child process writes it.
    package var json: JSONValue {
        var fields: OrderedDictionary<String, JSONValue> = ["bytes": .int(bytes)]
        if let frames { fields["frames"] = .int(frames) }
        if let fps { fields["fps"] = .double(fps) }
        if let seconds { fields["seconds"] = .double(seconds) }
        if let width { fields["width"] = .int(width) }
        if let height { fields["height"] = .int(height) }
        if let cost {
            // Copies multiply past any Double; JSON has no infinity.
            func number(_ value: Double) -> JSONValue { .double(value.isFinite ? value : .greatestFiniteMagnitude) }
            fields["cost"] = .object(["layers": number(cost.layers), "shapes": number(cost.shapes), "buffers": number(cost.buffers),
                                      "paintedCanvases": number(cost.paintedCanvases), "imagePixels": number(cost.imagePixels),
                                      "strokeWidth": number(cost.strokeWidth)])
        }
        if let renderMs {
            fields["renderMs"] = .object(["count": .int(renderMs.count), "p50": .optional(renderMs.p50), "p95": .optional(renderMs.p95),
                                          "p99": .optional(renderMs.p99), "max": .optional(renderMs.max)])
        }
        if let renderedFrames { fields["renderedFrames"] = .int(renderedFrames) }
        fields["problems"] = .array(problems.map(JSONValue.string))
        return .object(fields)
    }

    /// The report a child process wrote; nil when `value` is not one.
    package init?(json value: JSONValue) {
        guard case .int(let bytes)? = value["bytes"], case .array(let problems)? = value["problems"] else { return nil }
        self.init(bytes: bytes)
        func finite(_ value: JSONValue?) -> Double? { value?.number.flatMap { $0.isFinite ? $0 : nil } }
        func count(_ value: JSONValue?) -> Int? {
            if case .int(let number)? = value, number >= 0 { return number }
            return nil
        }
        frames = count(value["frames"])
        fps = finite(value["fps"])
        seconds = finite(value["seconds"])
        width = count(value["width"])
        height = count(value["height"])
        renderedFrames = count(value["renderedFrames"])
        if let cost = value["cost"] {
            var read = LottieCost()
            read.layers = finite(cost["layers"]) ?? 0
            read.shapes = finite(cost["shapes"]) ?? 0
            read.buffers = finite(cost["buffers"]) ?? 0
            read.paintedCanvases = finite(cost["paintedCanvases"]) ?? 0
            read.imagePixels = finite(cost["imagePixels"]) ?? 0
            read.strokeWidth = finite(cost["strokeWidth"]) ?? 0
            self.cost = read
        }
        if let render = value["renderMs"] {
            renderMs = Percentiles(count: count(render["count"]) ?? 0, p50: finite(render["p50"]), p95: finite(render["p95"]),
                                   p99: finite(render["p99"]), max: finite(render["max"]))
        }
        self.problems = problems.compactMap(\.string)
    }
}
