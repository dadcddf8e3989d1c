import Foundation
import ReelCore

/// Turns what a user typed (an http(s) URL, a `file:` URL or a local path) into a URL, refusing
/// other schemes by name.
public enum InputLocation {
    public static func parse(_ text: String, relativeTo directory: String = FileManager.default.currentDirectoryPath) throws -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ReelError(.invalidInput, "no input given: expected a URL or a path") }
        if let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
           trimmed[..<colon].count > 1 {
            let scheme = trimmed[..<colon].lowercased()
            guard let url = URL(string: trimmed) else { throw ReelError(.invalidInput, "'\(text)' is not a valid URL") }
            switch scheme {
            case "http", "https":
                guard url.host?.isEmpty == false else { throw ReelError(.invalidInput, "'\(text)' has no host") }
                return url
            case "file":
                return URL(fileURLWithPath: url.path)
            default:
                throw ReelError(.unsupportedScheme, "'\(text)': scheme '\(scheme)' is not supported (use http, https or a local path)")
            }
        }
        let absolute = trimmed.hasPrefix("/") ? trimmed : directory + "/" + trimmed
        return URL(fileURLWithPath: absolute).standardizedFileURL
    }
}
