import Foundation
import ReelLaunch
import ReelSplash
import ReelTestSupport

/// The Lottie samples and splash configurations of `Samples/launch`.
enum LaunchSamples {
    static let folder = PackagePaths.samples.appendingPathComponent("launch")

    static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The checker the app uses: each asset checked in a child process, the built `reel` as the child.
    static let reelChecker = ChildProcessAssetChecker(executable: PackagePaths.reelBinary, arguments: ["splash", "check-asset", "--child"])
}
