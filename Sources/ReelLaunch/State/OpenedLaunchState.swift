import ReelSplash
/// The launch state as opened: the database (nil when it cannot be used, and the state then
/// lives in memory for this process), what it holds for the policy, and the cached asset files.
struct OpenedLaunchState: Sendable {
    var store: LaunchStateStore?
    var state = LaunchState()
    var configuration: SplashConfiguration?
    /// XXH64 of the stored configuration's bytes.
    var configurationDigest: UInt64?
    var assets: [String: StoredAsset] = [:]
}
