/// Content-Type by file extension, as a CDN in front of HLS/DASH media answers it.
enum ContentType {
    /// The MIME type for a file path, by its extension (case-insensitive);
    /// `application/octet-stream` when the extension is unknown.
    static func forPath(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return octetStream }
        let ext = name[name.index(after: dot)...].lowercased()
        return types[ext] ?? octetStream
    }

    static let octetStream = "application/octet-stream"

    private static let types: [String: String] = [
        "m3u8": "application/vnd.apple.mpegurl",
        "mpd": "application/dash+xml",
        "ts": "video/mp2t",
        "m4s": "video/iso.segment",
        "mp4": "video/mp4",
        "m4v": "video/mp4",
        "m4a": "audio/mp4",
        "aac": "audio/aac",
        "key": "application/octet-stream",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "png": "image/png",
        "json": "application/json",
        "html": "text/html",
    ]
}
