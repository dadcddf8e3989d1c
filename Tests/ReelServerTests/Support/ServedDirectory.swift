import Foundation
import ReelCore

/// A temporary directory tree to serve, made fresh for each test: media files of known bytes,
/// one file per content type, a secret file just outside the root, and symlinks in and out.
struct ServedDirectory: Sendable {
    /// The parent: holds `root/` and `secret.txt` (which must never be served).
    let parent: URL
    /// The served directory.
    var root: URL { parent.appendingPathComponent("root", isDirectory: true) }

    /// Paths (from the root) and sizes of the generated media files.
    static let files: [String: Int] = [
        "video.mp4": 200_000,
        "hls/seg1.ts": 50_000,
        "hls/seg2.ts": 50_000,
        "hls/seg3.ts": 50_000,
        "big.bin": 1_500_000,
        "empty.bin": 0,
    ]

    /// One tiny file per extension the server knows, with the Content-Type it must get.
    static let contentTypes: [String: String] = [
        "t.m3u8": "application/vnd.apple.mpegurl",
        "t.mpd": "application/dash+xml",
        "t.ts": "video/mp2t",
        "t.m4s": "video/iso.segment",
        "t.mp4": "video/mp4",
        "t.m4v": "video/mp4",
        "t.m4a": "audio/mp4",
        "t.aac": "audio/aac",
        "t.key": "application/octet-stream",
        "t.jpg": "image/jpeg",
        "t.jpeg": "image/jpeg",
        "t.png": "image/png",
        "t.json": "application/json",
        "t.html": "text/html",
        "T.MP4": "video/mp4",
        "t.unknown": "application/octet-stream",
        "noextension": "application/octet-stream",
    ]

    static let secret = "top secret, outside the root\n"

    /// The bytes of a generated media file: a fixed pattern that differs at every offset mod 251.
    static func bytes(of path: String) -> [UInt8] {
        generated[path]!
    }

    /// Every generated file's bytes, made once per test process.
    private static let generated: [String: [UInt8]] = {
        var result: [String: [UInt8]] = [:]
        for (path, size) in files {
            let salt = UInt8(truncatingIfNeeded: path.utf8.reduce(0) { $0 &+ Int($1) })
            result[path] = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                var value: UInt8 = 0
                for index in 0..<size {
                    buffer[index] = value &+ salt
                    value = value == 250 ? 0 : value + 1
                }
                count = size
            }
        }
        return result
    }()

    /// Makes the tree on a dedicated thread.
    static func make() async throws -> ServedDirectory {
        try await BlockingPool.shared.run {
            let manager = FileManager.default
            let parent = manager.temporaryDirectory.appendingPathComponent("reel-cdn-\(UUID().uuidString)")
            let directory = ServedDirectory(parent: parent)
            let root = directory.root
            try manager.createDirectory(at: root.appendingPathComponent("hls"), withIntermediateDirectories: true)
            for path in files.keys {
                try Data(bytes(of: path)).write(to: root.appendingPathComponent(path))
            }
            for name in contentTypes.keys {
                try Data("x".utf8).write(to: root.appendingPathComponent(name))
            }
            try Data(secret.utf8).write(to: parent.appendingPathComponent("secret.txt"))
            // A link out of the root (refused) and one inside it (served).
            try manager.createSymbolicLink(atPath: root.appendingPathComponent("escape").path, withDestinationPath: "..")
            try manager.createSymbolicLink(atPath: root.appendingPathComponent("secret-link.txt").path,
                                           withDestinationPath: parent.appendingPathComponent("secret.txt").path)
            try manager.createSymbolicLink(atPath: root.appendingPathComponent("alias.ts").path, withDestinationPath: "hls/seg1.ts")
            return directory
        }
    }

    /// Removes the tree on a dedicated thread.
    func remove() async {
        let parent = parent
        _ = try? await BlockingPool.shared.run { try FileManager.default.removeItem(at: parent) }
    }
}
