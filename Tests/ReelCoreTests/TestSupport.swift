import Foundation
import ReelCore
import Testing

/// Paths and builders shared by the ReelCore tests.
enum Fixtures {
    /// The package's root directory, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    static func path(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// The defaults with `--set` style assignments applied.
    static func config(_ assignments: [String] = []) throws -> ReelConfig {
        try ConfigResolver().resolve(assignments.isEmpty ? [] : [.assignments(assignments)]).config
    }
}

/// Writes `text` to a new temporary file in a folder of its own and returns its path; the caller
/// removes it with `removeTemporaryFile`.
func temporaryFile(_ text: String, name: String = "file.json") throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-core-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

/// Removes a file made by `temporaryFile`, with its folder.
func removeTemporaryFile(_ path: String) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
}
