import Foundation

/// What a folder holds, every path under it with what it is (a folder, a file's bytes, a link's
/// target), links never followed: two snapshots compare equal when nothing under the folder was
/// created, removed or rewritten.
package enum FolderSnapshot {
    /// The snapshot of `root`, leaving out `skipping` (a path under it) and what it holds.
    package static func take(_ root: URL, skipping: String? = nil) throws -> [String: String] {
        var result: [String: String] = [:]
        func walk(_ path: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: path) {
                let child = path + "/" + name
                guard child != skipping else { continue }
                // attributesOfItem does not follow a link (lstat).
                switch try FileManager.default.attributesOfItem(atPath: child)[.type] as? FileAttributeType {
                case .typeSymbolicLink?:
                    result[child] = "link to " + (try FileManager.default.destinationOfSymbolicLink(atPath: child))
                case .typeDirectory?:
                    result[child] = "folder"
                    try walk(child)
                default:
                    result[child] = "file " + String(decoding: try Data(contentsOf: URL(fileURLWithPath: child)), as: UTF8.self)
                }
            }
        }
        try walk(root.standardizedFileURL.path)
        return result
    }

    /// The symbolic links under `root`.
    package static func links(under root: URL) throws -> [String] {
        try take(root).filter { $0.value.hasPrefix("link to ") }.keys.sorted()
    }
}
