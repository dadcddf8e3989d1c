import ReelCore
import Foundation

/// Changes to the launch state written in one transaction: everything one event or one piece
/// of background work changed, so a SIGKILL leaves either all of it or none.
package struct LaunchStateChanges: Sendable {
    package var lifecycle: LaunchLifecycle?
    package var displays: [(splash: String, at: Date)] = []
    package var crashes: [CrashRecord] = []
    package var configuration: StoredConfiguration?
    package var upserts: [StoredAsset] = []
    package var deletes: [String] = []

    package var isEmpty: Bool {
        lifecycle == nil && displays.isEmpty && crashes.isEmpty && configuration == nil && upserts.isEmpty && deletes.isEmpty
    }

    package init(lifecycle: LaunchLifecycle? = nil, displays: [(splash: String, at: Date)] = [], crashes: [CrashRecord] = [],
                 configuration: StoredConfiguration? = nil, upserts: [StoredAsset] = [], deletes: [String] = []) {
        self.lifecycle = lifecycle
        self.displays = displays
        self.crashes = crashes
        self.configuration = configuration
        self.upserts = upserts
        self.deletes = deletes
    }
}
