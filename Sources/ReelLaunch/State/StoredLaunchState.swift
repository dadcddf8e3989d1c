/// What the launch state database holds, as loaded.
struct StoredLaunchState: Sendable {
    var state = LaunchState()
    var configuration: StoredConfiguration?
    var assets: [StoredAsset] = []
}
