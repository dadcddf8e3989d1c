import Foundation
import ReelCore

/// A playlist's (or BaseURL's) directory, up to and including its last `/`, shared by every
/// segment named relative to it.
final class ManifestDirectory: Sendable {
    /// The directory's text, ending in `/`.
    let text: String
    /// The URL the directory was taken from.
    let base: URL

    init(text: String, base: URL) {
        self.text = text
        self.base = base
    }
}
