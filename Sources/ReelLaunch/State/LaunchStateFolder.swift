import Foundation
import ReelCore
import ReelNet

#if canImport(Glibc)
import Glibc
import ReelSplash
#endif

/// The launch state's folder and the only files Reel makes in it:
///
///     <dir>/launch.sqlite (+ -wal, -shm)   the database (`LaunchStateStore`)
///     <dir>/assets/<16 hex>.json           cached assets, named by the XXH64 of their URL
///     <dir>/tmp/<16 hex>.json.tmp          assets being written
///
/// An asset is written to `tmp/`, fsync'ed, renamed into `assets/` and the folder fsync'ed,
/// and only then gets its database row; so after a crash a row always names a whole file, and
/// files no row names (a crash between rename and row) are removed when the state is opened.
/// Reel removes only names of these forms, never anything else in the folder. Blocking.
public struct LaunchStateFolder: Sendable {
    public let directory: URL
    static let databaseName = "launch.sqlite"

    public init(directory: URL) {
        self.directory = directory
    }

    /// `launch.stateDirectory`, else `$XDG_STATE_HOME/reel/launch`, else `~/.local/state/reel/launch`.
    public static func defaultDirectory(_ config: ReelConfig, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if !config.launch.stateDirectory.isEmpty {
            return URL(fileURLWithPath: config.launch.stateDirectory)
        }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("reel/launch")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/reel/launch")
    }

    var databasePath: String { directory.appendingPathComponent(Self.databaseName).path }
    var assetsPath: String { directory.appendingPathComponent("assets").path }
    var temporaryPath: String { directory.appendingPathComponent("tmp").path }

    /// The path of a cached asset file.
    public func assetPath(_ name: String) -> String { assetsPath + "/" + name }

    /// Makes the folders and removes Reel's leftover temporary files.
    func prepare() throws {
        for path in [directory.path, assetsPath, temporaryPath] {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw ReelError(.cacheIO, "launch state folder '\(directory.path)' is not usable: cannot make '\(path)': \(error.localizedDescription)")
            }
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporaryPath)) ?? [] where Self.isTemporaryName(name) {
            unlink(temporaryPath + "/" + name)
        }
    }

    /// The asset file names present.
    func assetNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: assetsPath)) ?? []).filter(Self.isAssetName).sorted()
    }

    /// A file name for `url` that no name in `taken` uses (another seed on the rare clash).
    func fileName(for url: String, taken: Set<String>) -> String {
        var seed: UInt64 = 0
        while true {
            let hex = String(XXHash64.hash(url, seed: seed), radix: 16)
            let name = String(repeating: "0", count: 16 - hex.count) + hex + ".json"
            if !taken.contains(name) { return name }
            seed += 1
        }
    }

    /// Writes an asset atomically: temporary file, fsync, rename, fsync of the folder.
    func writeAsset(_ bytes: [UInt8], name: String) throws {
        let temporary = temporaryPath + "/" + name + ".tmp"
        let target = assetPath(name)
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ioError("cannot create '\(temporary)'") }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = ioError("cannot write '\(temporary)'")
                Glibc.close(fd)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard fsync(fd) == 0 else {
            let error = ioError("cannot sync '\(temporary)'")
            Glibc.close(fd)
            unlink(temporary)
            throw error
        }
        Glibc.close(fd)
        guard rename(temporary, target) == 0 else {
            let error = ioError("cannot rename '\(temporary)' to '\(target)'")
            unlink(temporary)
            throw error
        }
        let folder = Glibc.open(assetsPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            Glibc.close(folder)
        }
    }

    /// The bytes of a cached asset, or nil when the file cannot be read or is larger than any
    /// asset is read (`LottieRenderer.maxReadBytes`).
    func readAsset(_ name: String) -> [UInt8]? {
        var info = stat()
        guard stat(assetPath(name), &info) == 0, info.st_size <= LottieRenderer.maxReadBytes else { return nil }
        return FileManager.default.contents(atPath: assetPath(name)).map { Array($0) }
    }

    /// Removes a cached asset file (a name of Reel's form only).
    func removeAsset(_ name: String) {
        guard Self.isAssetName(name) else { return }
        unlink(assetPath(name))
    }

    /// `<16 hex>.json`.
    static func isAssetName(_ name: String) -> Bool { StoredAsset.isFileName(name) }

    /// `<16 hex>.json.tmp`.
    static func isTemporaryName(_ name: String) -> Bool {
        name.hasSuffix(".tmp") && isAssetName(String(name.dropLast(4)))
    }

    private func ioError(_ message: String) -> ReelError {
        ReelError(.cacheIO, "launch state: \(message): \(String(cString: strerror(errno)))")
    }
}
