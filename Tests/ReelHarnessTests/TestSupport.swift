import Foundation
import ReelCore
import ReelFeed
import ReelTestSupport

/// Paths and builders shared by the harness tests.
enum Fixtures {
    /// The 144-entry catalog in the original schema; a missing file fails the test.
    static func catalog144() throws -> FeedCatalog {
        try FeedCatalog.load(path: PackagePaths.root.appendingPathComponent("Tests/Fixtures/video-feed-144.json").path)
    }

    /// The defaults with `--set` style assignments applied.
    static func config(_ assignments: [String] = []) throws -> ReelConfig {
        try ConfigResolver().resolve(assignments.isEmpty ? [] : [.assignments(assignments)]).config
    }
}
