#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ReelCore

/// The file calls on a results folder, none of which follows a symbolic link: a folder may come
/// from another machine (a shard), so a link in it could point anywhere, and reading, copying or
/// removing through it would reach outside the folders named on the command line. A link is an
/// error naming it. The C functions underneath are `lstat`, `mkdir`, `rename`, `unlink`, `rmdir`.
package enum SweepFiles {
    package enum Kind: Sendable, Equatable {
        case missing, file, directory, link, other
    }

    /// How deep a cell's folder may nest (reel writes none): deeper is refused, not walked.
    static let maxDepth = 8

    /// What `path` is, its last component not followed.
    package static func kind(_ path: String) throws -> Kind {
        try entry(path)?.kind ?? .missing
    }

    /// The size of a regular file at `path` (nil when it is not one).
    package static func size(_ path: String) throws -> Int64? {
        guard let found = try entry(path), found.kind == .file else { return nil }
        return found.size
    }

    private static func entry(_ path: String) throws -> (kind: Kind, size: Int64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw failure("cannot look at '\(path)'", errno)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return (.file, Int64(info.st_size))
        case S_IFDIR: return (.directory, 0)
        case S_IFLNK: return (.link, 0)
        default: return (.other, 0)
        }
    }

    /// What `components` name under `root`, each component looked at in turn: a symbolic link on
    /// the way, or something other than a folder where one should be, is an error naming it.
    package static func kind(under root: String, _ components: [String]) throws -> Kind {
        var path = root
        for (offset, component) in components.enumerated() {
            path += "/" + component
            let found = try kind(path)
            if found == .link { throw linkRefused(path) }
            if found == .missing || offset == components.count - 1 { return found }
            guard found == .directory else { throw ReelError(.invalidInput, "'\(path)' is not a folder") }
        }
        return .directory
    }

    private static func linkRefused(_ path: String) -> ReelError {
        ReelError(.invalidInput, "'\(path)' is a symbolic link: a sweep's results folder holds only the files and folders reel writes, and reel follows no link in it")
    }

    /// The names in the folder `path` (no `.` or `..`).
    package static func names(in path: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw ReelError(.invalidInput, "cannot list '\(path)': \(error.localizedDescription)")
        }
    }

    /// Makes the folder `path`; its parent must exist.
    package static func makeFolder(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 else { throw failure("cannot create '\(path)'", errno) }
    }

    /// Copies the folder `source` to `target` (which must not exist): regular files and folders
    /// only; a link, a device, a FIFO or a socket in it is an error naming it.
    package static func copyTree(from source: String, to target: String, depth: Int = 0) throws {
        guard depth <= maxDepth else { throw ReelError(.invalidInput, "'\(source)' nests folders deeper than a cell has") }
        try makeFolder(target)
        for name in try names(in: source) {
            let from = source + "/" + name, to = target + "/" + name
            switch try kind(from) {
            case .file:
                do {
                    try FileManager.default.copyItem(atPath: from, toPath: to)
                } catch {
                    throw ReelError(.invalidInput, "cannot copy '\(from)' to '\(to)': \(error.localizedDescription)")
                }
            case .directory: try copyTree(from: from, to: to, depth: depth + 1)
            case .link: throw linkRefused(from)
            case .other: throw ReelError(.invalidInput, "'\(from)' is neither a file nor a folder")
            case .missing: continue
            }
        }
    }

    /// Removes `path` and, for a folder, what it holds; a link is removed itself, never followed.
    package static func removeTree(_ path: String, depth: Int = 0) throws {
        switch try kind(path) {
        case .missing:
            return
        case .directory:
            guard depth <= maxDepth else { throw ReelError(.invalidInput, "'\(path)' nests folders deeper than a cell has; remove it by hand") }
            for name in try names(in: path) { try removeTree(path + "/" + name, depth: depth + 1) }
            guard rmdir(path) == 0 || errno == ENOENT else { throw failure("cannot remove '\(path)'", errno) }
        case .file, .link, .other:
            guard unlink(path) == 0 || errno == ENOENT else { throw failure("cannot remove '\(path)'", errno) }
        }
    }

    /// Renames `from` to `to` (in one file system: atomic).
    package static func rename(_ from: String, to: String) throws {
        guard systemRename(from, to) == 0 else { throw failure("cannot rename '\(from)' to '\(to)'", errno) }
    }

    private static func failure(_ what: String, _ code: Int32) -> ReelError {
        ReelError(.invalidInput, "\(what): \(String(cString: strerror(code)))")
    }
}

/// `rename(2)` under a name that does not clash with `SweepFiles.rename`.
private func systemRename(_ from: String, _ to: String) -> Int32 {
    rename(from, to)
}
