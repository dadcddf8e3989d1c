import Foundation
import ReelCore

/// Files a command will write, checked before it starts work: a missing folder is made, a
/// path that is a folder or sits in a folder that cannot be written is refused (exit 2), so a
/// long run never ends in "The file doesn't exist" with its results lost.
enum OutputPaths {
    /// Checks each `(path, what)` pair ("the report") and makes their folders.
    static func prepare(_ outputs: [(path: String?, what: String)]) throws {
        for case let (path?, what) in outputs {
            try prepare(path, what: what)
        }
    }

    static func prepare(_ path: String, what: String) throws {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw ReelError(.invalidInput, "cannot write \(what) to '\(path)': it is a folder")
        }
        if let problem = problem(with: url.deletingLastPathComponent()) {
            throw ReelError(.invalidInput, "cannot write \(what) to '\(path)': \(problem)")
        }
    }

    /// Makes `folder` (and its parents) when missing and checks it can be written.
    static func folder(_ folder: URL, for what: String) throws {
        if let problem = problem(with: folder) { throw ReelError(.invalidInput, "cannot write \(what) into '\(folder.path)': \(problem)") }
    }

    /// Why `folder` cannot take files (after making it when missing), or nil.
    private static func problem(with folder: URL) -> String? {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return "the folder '\(folder.path)' cannot be made (\(error.localizedDescription))"
        }
        return access(folder.path, W_OK) == 0 ? nil : "the folder '\(folder.path)' is not writable"
    }
}
