import Foundation

/// Where the package's own files are, found from this source file's location.
package enum PackagePaths {
    /// The package root (the folder holding Package.swift).
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static let samples = root.appendingPathComponent("Samples")

    /// The built `reel` executable next to the test bundle.
    package static var reelBinary: URL { builtProduct("reel") }

    /// The built `reel-view` executable next to the test bundle.
    package static var viewBinary: URL { builtProduct("reel-view") }

    /// An executable product of the package, built beside the test bundle.
    package static func builtProduct(_ name: String) -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // `swift test` runs <build>/debug/ReelPackageTests.xctest; the tool sits beside it.
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/\(name)")
    }
}
