import ReelCore

/// What checking one splash asset found: its figures (nil where it did not get that far), the
/// render time of each frame on this machine, and every problem. Valid when there is none.
public struct SplashAssetReport: Sendable, Hashable {
    public var bytes: Int
    public var frames: Int?
    public var fps: Double?
    public var seconds: Double?
    public var width: Int?
    public var height: Int?
    /// Render time per frame, in milliseconds; nil when no frame was rendered.
    public var renderMs: Percentiles?
    public var problems: [String] = []

    public var isValid: Bool { problems.isEmpty }

    public init(bytes: Int) {
        self.bytes = bytes
    }
}
