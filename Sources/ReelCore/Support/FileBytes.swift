import Foundation

/// Reads a whole input file (configuration, catalog, trace) with an error that says plainly what
/// is wrong with the path instead of a raw Foundation error.
public enum FileBytes {
    /// The file's bytes, or a `ReelError` with `code` naming `what` and the path. A file over
    /// `maxBytes` is refused before it is read.
    public static func read(_ path: String, what: String, code: ReelError.Code, maxBytes: Int? = nil) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReelError(code, "\(what) '\(path)' not found")
        }
        guard !isDirectory.boolValue else {
            throw ReelError(code, "\(what) '\(path)' is a directory, not a file")
        }
        if let maxBytes, let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxBytes {
            throw ReelError(code, "\(what) '\(path)' is \(size) bytes, over the limit of \(maxBytes) bytes")
        }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ReelError(code, "\(what) '\(path)' cannot be read: \(error.localizedDescription)")
        }
    }
}
