import Foundation
import ReelCore

/// Where a segment's bytes are: a resolved URL, a plain relative name in its playlist's
/// directory (`seg-1.ts` next to `https://cdn/v/index.m3u8`), kept as the shared directory and
/// the name, or an absolute URL kept as text, so that parsing a long playlist keeps no
/// Foundation `URL` (some 400 bytes) per segment.
enum SegmentLocation: Sendable, Equatable {
    case url(URL)
    /// An absolute URL's text: as written when `URLResolver.isPlainAbsoluteURL` accepts it, else
    /// as Foundation wrote it after resolving.
    case absolute(String)
    /// `directory.text + name`; `URLResolver.isPlainRelativeName(name)` holds, so the two
    /// joined are an absolute URL as they stand.
    case inDirectory(ManifestDirectory, String)

    /// The resolved URL (built on each call for a name in a directory).
    var url: URL {
        switch self {
        case .url(let url):
            return url
        case .absolute(let text):
            // Valid as it stands by construction; an absolute URI ignores the base it would
            // otherwise be resolved against.
            let anyBase = URL(fileURLWithPath: "/")
            return URL(string: text) ?? URLResolver.resolve(text, against: anyBase) ?? anyBase
        case .inDirectory(let directory, let name):
            // The join is a valid URL by construction; resolving the name properly is the
            // fallback should Foundation ever disagree.
            return URL(string: directory.text + name) ?? URLResolver.resolve(name, against: directory.base)
                ?? directory.base
        }
    }

    /// The resolved URL's text.
    var absoluteString: String {
        switch self {
        case .url(let url): url.absoluteString
        case .absolute(let text): text
        case .inDirectory(let directory, let name): directory.text + name
        }
    }

    static func == (lhs: SegmentLocation, rhs: SegmentLocation) -> Bool {
        if case .inDirectory(let left, let leftName) = lhs, case .inDirectory(let right, let rightName) = rhs,
            left === right
        {
            return leftName == rightName
        }
        return lhs.absoluteString == rhs.absoluteString
    }
}
