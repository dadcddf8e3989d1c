/// What checking one splash asset found: its figures (nil where it did not get that far), the
/// render time of each frame on this machine, and every problem. Valid when there is none.
public struct SplashAssetReport: Sendable, Hashable {
    /// Render time per frame, in milliseconds.
    public struct RenderTimes: Sendable, Hashable {
        public var p50: Double
        public var p95: Double
        public var max: Double
    }

    public var bytes: Int
    public var frames: Int?
    public var fps: Double?
    public var seconds: Double?
    public var width: Int?
    public var height: Int?
    /// Nil when no frame was rendered.
    public var renderMs: RenderTimes?
    public var problems: [String] = []

    public var isValid: Bool { problems.isEmpty }

    public init(bytes: Int) {
        self.bytes = bytes
    }
}
