import Foundation
import ReelServer

/// Serves a folder (by default the bundled `Samples/`) with the CDN simulator for one test.
package func withSampleServer<T>(
    root: URL = PackagePaths.samples, profile: NetworkProfile = .unlimited,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (CDNServer) async throws -> T
) async throws -> T {
    try await withServer(CDNServerConfiguration(root: root, profile: profile), body)
}

/// A scratch folder for one test, removed by the caller when done.
package func makeScratchFolder(_ name: String = "reel-test") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
