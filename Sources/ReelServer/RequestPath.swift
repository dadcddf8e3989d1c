import Foundation

/// A request target turned into the path the bill, faults and logs are keyed by, and a verdict
/// on whether it may name a file under the served directory. Pure: touches no file.
struct RequestPath: Sendable, Equatable {
    /// Whether the path may be looked up.
    enum Verdict: Sendable, Equatable {
        /// Safe components under the root (no `.`, `..` or empty ones).
        case components([String])
        /// The path climbs out of the root (`..`, also when percent-encoded): 403.
        case forbidden
        /// The target is not a path (bad percent-encoding, a NUL byte, `*`): 400.
        case badRequest
    }

    /// Percent-decoded path without query or fragment, with empty and `.` components removed
    /// (`/a//./b.ts` is `/a/b.ts`); for a refused target, the decoded text as it came.
    let key: String
    let verdict: Verdict

    init(uri: String) {
        var raw = Substring(uri)
        if let end = raw.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            raw = raw[..<end]
        }
        // Absolute-form targets (`http://host/path`): keep the path only.
        for scheme in ["http://", "https://"] where raw.lowercased().hasPrefix(scheme) {
            let afterScheme = raw.dropFirst(scheme.count)
            raw = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        guard raw.hasPrefix("/"), let decoded = String(raw).removingPercentEncoding, !decoded.contains("\0") else {
            key = String(raw)
            verdict = .badRequest
            return
        }
        let parts = decoded.split(separator: "/").map(String.init).filter { $0 != "." }
        if parts.contains("..") {
            key = decoded
            verdict = .forbidden
            return
        }
        key = "/" + parts.joined(separator: "/")
        verdict = .components(parts)
    }

    /// Normalises a path given to the server API (`seg.ts`, `/seg.ts?x=1`) into a key.
    static func key(for path: String) -> String {
        RequestPath(uri: path.hasPrefix("/") ? path : "/" + path).key
    }
}
