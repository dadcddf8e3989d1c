import Foundation
import ReelCore

/// A DASH parse failure at a line of the MPD; `DASHManifestParser` turns it into a `ReelError`.
struct DASHFailure: Error {
    let url: URL
    let line: Int
    let message: String
}
