/// What a splash asset may be at most (`launch.splash.maxFPS`, `maxSeconds`, `maxBytes`), and
/// what checking it may cost (`launch.splash.checkMemoryMiB`, `checkSeconds`: the bounds of the
/// child process `ChildProcessAssetChecker` runs it in). Each limit is inclusive: an asset at
/// exactly 30 fps, 3 s or 1 MiB is valid.
public struct SplashAssetLimits: Sendable, Hashable {
    public var maxFPS: Double
    public var maxSeconds: Double
    public var maxBytes: Int
    /// Memory the check's process may take (its data: heap, private mappings, thread stacks), in bytes.
    public var checkMemoryBytes: Int
    /// CPU seconds the check's process may take (and twice that in wall-clock time).
    public var checkSeconds: Double

    public init(maxFPS: Double = 30, maxSeconds: Double = 3, maxBytes: Int = 1 << 20,
                checkMemoryBytes: Int = 512 << 20, checkSeconds: Double = 15) {
        self.maxFPS = maxFPS
        self.maxSeconds = maxSeconds
        self.maxBytes = maxBytes
        self.checkMemoryBytes = checkMemoryBytes
        self.checkSeconds = checkSeconds
    }
}
