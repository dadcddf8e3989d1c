import Foundation

/// Changes to the launch state written in one transaction: everything one event or one piece
/// of background work changed, so a SIGKILL leaves either all of it or none.
struct LaunchStateChanges: Sendable {
    var lifecycle: LaunchLifecycle?
    var displays: [(splash: String, at: Date)] = []
    var crashes: [CrashRecord] = []
    var configuration: StoredConfiguration?
    var upserts: [StoredAsset] = []
    var deletes: [String] = []

    var isEmpty: Bool {
        lifecycle == nil && displays.isEmpty && crashes.isEmpty && configuration == nil && upserts.isEmpty && deletes.isEmpty
    }
}
