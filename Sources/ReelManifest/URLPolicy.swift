import Foundation
import ReelCore

/// Which URLs a demuxer may open. A remote top-level input may name only http and https URLs;
/// a local top-level input may also name local files. Everything else (other schemes, FFmpeg's
/// own protocols, `file:` or bare paths inside a remote playlist: the class of CVE-2016-1897/1898)
/// is refused by name.
public struct URLPolicy: Sendable, Hashable {
    public var allowLocalFiles: Bool

    public init(allowLocalFiles: Bool) { self.allowLocalFiles = allowLocalFiles }

    /// The policy for a top-level input: local inputs may read local files.
    public static func forTopLevel(_ url: URL) -> URLPolicy {
        URLPolicy(allowLocalFiles: url.isFileURL)
    }

    /// Parses a URL as FFmpeg hands it to `io_open` and checks it against the policy.
    public func check(_ text: String) throws -> URL {
        if text.hasPrefix("/") {
            guard allowLocalFiles else { throw forbidden(text) }
            return URL(fileURLWithPath: text)
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw ReelError(.invalidInput, "refused '\(text)': not a URL")
        }
        switch scheme {
        case "http", "https":
            guard url.host != nil else { throw ReelError(.invalidInput, "refused '\(text)': no host") }
            return url
        case "file":
            guard allowLocalFiles else { throw forbidden(text) }
            return url
        default:
            throw ReelError(.unsupportedScheme, "refused '\(text)': scheme '\(scheme)' is not allowed (only http, https\(allowLocalFiles ? " and local files" : ""))")
        }
    }

    /// Checks a URL Reel's own parser found in `playlist`; the error names both.
    public func check(_ url: URL, in playlist: URL) throws {
        do {
            _ = try check(url.isFileURL ? url.absoluteString : url.absoluteString)
        } catch let error as ReelError {
            throw ReelError(error.code, "playlist '\(playlist.absoluteString)' names a URL Reel will not open: \(error.message)")
        }
    }

    private func forbidden(_ text: String) -> ReelError {
        ReelError(.forbiddenURL, "refused '\(text)': a remote playlist may not name a local file")
    }
}
