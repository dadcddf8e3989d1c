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

    /// An executable product of the package: built beside the test bundle; else in the folder
    /// `REEL_TEST_PRODUCTS` names (`make tsan` builds no executables and points at `make test`'s);
    /// else in `swift build`'s `.build/debug`.
    package static func builtProduct(_ name: String) -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // `swift test` runs <build>/debug/ReelPackageTests.xctest; the tool sits beside it.
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        if let products = ProcessInfo.processInfo.environment["REEL_TEST_PRODUCTS"], !products.isEmpty {
            return URL(fileURLWithPath: products, relativeTo: root).appendingPathComponent(name)
        }
        return root.appendingPathComponent(".build/debug/\(name)")
    }
}
