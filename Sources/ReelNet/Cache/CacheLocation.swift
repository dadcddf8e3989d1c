import Foundation

/// Where the cache lives when nothing says otherwise: the `--cache` option, else the
/// `cache.directory` setting, else `$XDG_CACHE_HOME/reel`, else `~/.cache/reel`.
public enum CacheLocation {
    public static func directory(explicit: String?, configured: String,
                                 environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        func absolute(_ path: String) -> URL {
            let expanded = (path as NSString).expandingTildeInPath
            return URL(fileURLWithPath: expanded.hasPrefix("/") ? expanded
                       : FileManager.default.currentDirectoryPath + "/" + expanded).standardizedFileURL
        }
        if let explicit, !explicit.isEmpty { return absolute(explicit) }
        if !configured.isEmpty { return absolute(configured) }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("reel")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/reel")
    }
}
