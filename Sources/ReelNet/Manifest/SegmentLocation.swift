import Foundation

/// Where a segment's bytes are: a resolved URL, or a plain relative name in its playlist's
/// directory (`seg-1.ts` next to `https://cdn/v/index.m3u8`), kept as the shared directory and
/// the name so that parsing a long playlist builds no Foundation `URL` per segment.
enum SegmentLocation: Sendable, Equatable {
    case url(URL)
    /// `directory.text + name`; `URLResolver.isPlainRelativeName(name)` holds, so the two
    /// joined are an absolute URL as they stand.
    case inDirectory(ManifestDirectory, String)

    /// The resolved URL (built on each call for a name in a directory).
    var url: URL {
        switch self {
        case .url(let url):
            return url
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
