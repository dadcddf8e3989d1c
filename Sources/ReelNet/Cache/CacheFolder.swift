import Foundation
import ReelCore

#if canImport(Glibc)
import Glibc
#endif

/// Whose folder a cache folder is. Reel writes a marker (`CACHEDIR.TAG`, the cache directory
/// tagging standard, so backup tools skip the folder, with a line naming Reel) when it creates a
/// folder or adopts an empty one, and refuses a non-empty folder without it: pointed at a folder
/// that holds other files, the cache must never delete, overwrite or add anything there.
/// System folders are refused outright, marker or not.
enum CacheFolder {
    static let markerName = "CACHEDIR.TAG"
    /// The line that tells Reel's marker from another program's `CACHEDIR.TAG`.
    static let markerLine = "# This folder is a Reel disk cache (format 1); Reel deletes only the files it created in it."
    static let markerText = """
        Signature: 8a477f597d28d172789f06886806bc55
        \(markerLine)
        # For information about cache directory tags see https://bford.info/cachedir/

        """

    /// Folders that are never a cache, whatever they hold: these and everything under them.
    static let systemTrees = ["/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot",
                              "/dev", "/proc", "/sys", "/run", "/var/lib", "/var/log", "/var/spool", "/var/mail"]
    /// Folders that are never a cache themselves (a cache may live below them).
    static let systemRoots = ["/", "/home", "/root", "/var", "/tmp", "/opt", "/mnt", "/media", "/srv", "/var/tmp",
                              "/var/cache"]

    /// Makes `path` a cache folder Reel may use, or throws `.cacheIO` naming why not: a system
    /// folder, a non-empty folder Reel did not create, a folder that cannot be created or written.
    /// Creates a missing folder (and its parents) and marks it; marks an empty one.
    static func claim(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let reason = systemFolderReason(path, home: environment["HOME"]) {
            throw ReelError(.cacheIO, "cache folder '\(path)' is refused: \(reason)")
        }
        do {
            try CacheFiles.makeDirectory(path)
        } catch let error as ReelError {
            throw ReelError(.cacheIO, "cache folder '\(path)' is not usable: \(error.message)")
        }
        if hasReelMarker(path) { return }
        var names = CacheFiles.list(path)
        if hasTornReelMarker(path) { names.removeAll { $0 == markerName } }
        guard names.isEmpty || holdsOnlyReelLayout(path, names: names) else {
            let shown = names.sorted().prefix(3).map { "'\($0)'" }.joined(separator: ", ")
            throw ReelError(.cacheIO, """
                cache folder '\(path)' is refused: it holds files Reel did not create (\(shown)\
                \(names.count > 3 ? ", ..." : "")) and no Reel \(markerName); give an empty or new folder
                """)
        }
        try writeMarker(path)
    }

    /// Why `path` is a system folder, or nil. Symbolic links are resolved first (the nearest
    /// existing ancestor), so a link to `/etc` is refused as `/etc` is.
    static func systemFolderReason(_ path: String, home: String?) -> String? {
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        for candidate in Set([standard, resolved(standard)]) {
            if systemRoots.contains(candidate) { return "'\(candidate)' is a system folder" }
            if let home, !home.isEmpty, URL(fileURLWithPath: home).standardizedFileURL.path == candidate {
                return "'\(candidate)' is the home folder"
            }
            for tree in systemTrees where candidate == tree || candidate.hasPrefix(tree + "/") {
                return "'\(candidate)' is inside the system folder '\(tree)'"
            }
        }
        return nil
    }

    /// `path` with the symbolic links of its nearest existing ancestor resolved.
    private static func resolved(_ path: String) -> String {
        var existing = path
        var rest: [String] = []
        while !existing.isEmpty && existing != "/" {
            if let real = realpath(existing, nil) {
                defer { free(real) }
                let base = String(cString: real)
                return rest.isEmpty ? base : (base == "/" ? "" : base) + "/" + rest.reversed().joined(separator: "/")
            }
            rest.append((existing as NSString).lastPathComponent)
            existing = (existing as NSString).deletingLastPathComponent
        }
        return path
    }

    /// True when the folder carries Reel's marker.
    static func hasReelMarker(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: "\(path)/\(markerName)"), data.count <= 4096 else {
            return false
        }
        return String(decoding: data, as: UTF8.self).contains(markerLine)
    }

    /// A cache made before folders were marked: every name is one Reel's layout uses (the index,
    /// the lock, `data/` with hash shards of content files, `tmp/` with temporary files). Such a
    /// folder is adopted; any other name makes it foreign.
    static func holdsOnlyReelLayout(_ path: String, names: [String]) -> Bool {
        let topLevel: Set<String> = [CacheFiles.indexName, CacheFiles.indexName + "-wal", CacheFiles.indexName + "-shm",
                                     CacheFiles.lockName, "data", "tmp"]
        guard names.allSatisfy(topLevel.contains) else { return false }
        for name in CacheFiles.list("\(path)/tmp") where !CacheFiles.isTemporaryName(name) { return false }
        for shard in CacheFiles.list("\(path)/data") {
            for name in CacheFiles.list("\(path)/data/\(shard)") where !CacheFiles.isContentName(name, inShard: shard) {
                return false
            }
        }
        return true
    }

    /// A marker cut short by a crash while Reel wrote it (a prefix of the text, possibly empty).
    static func hasTornReelMarker(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: "\(path)/\(markerName)") else { return false }
        return data.count < markerText.utf8.count && Array(markerText.utf8).starts(with: data)
    }

    /// Writes the marker and makes it durable (file and folder synced).
    private static func writeMarker(_ path: String) throws {
        let markerPath = "\(path)/\(markerName)"
        let fd = Glibc.open(markerPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ReelError(.cacheIO, "cache folder '\(path)' is not usable: cannot create '\(markerPath)': \(CacheFiles.reason(errno))")
        }
        defer { Glibc.close(fd) }
        try Array(markerText.utf8).withUnsafeBytes { try CacheFiles.writeAll(fd, $0, path: markerPath) }
        try CacheFiles.sync(fd, path: markerPath)
        try CacheFiles.syncDirectory(path)
    }
}
