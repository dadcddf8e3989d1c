/// What a splash asset may be at most (`launch.splash.maxFPS`, `maxSeconds`, `maxBytes`). Each
/// limit is inclusive: an asset at exactly 30 fps, 3 s or 1 MiB is valid.
public struct SplashAssetLimits: Sendable, Hashable {
    public var maxFPS: Double
    public var maxSeconds: Double
    public var maxBytes: Int

    public init(maxFPS: Double = 30, maxSeconds: Double = 3, maxBytes: Int = 1 << 20) {
        self.maxFPS = maxFPS
        self.maxSeconds = maxSeconds
        self.maxBytes = maxBytes
    }
}
