import Foundation
import OrderedCollections
import ReelCore
import ReelManifest

/// Reads a splash configuration, `{"holidaySplash": [{"name", "id", "startDateTime",
/// "endDateTime", "assetUrl", "displayTimeInterval", "priority"}]}`. A document that is not such
/// an object is refused whole; a bad splash (missing or duplicate id, a date that does not
/// parse, an end not after its start, a missing or unusable `assetUrl`, a negative interval) is
/// skipped with a warning naming it and why, and the rest are kept. `displayTimeInterval` and
/// `priority` are numbers or strings of one (`"600"`, `"0.5"`), as services write them.
/// Warnings show the document's text with control characters escaped.
public enum SplashConfigurationParser {
    /// Largest configuration read, in bytes.
    public static let maxBytes = 4 << 20
    /// Splashes read at most; the rest are skipped with one warning.
    public static let maxEntries = 10_000

    /// The configuration `bytes` (fetched from `url` at `fetchedAt`) lists, with one warning per
    /// skipped splash. Relative asset URLs resolve against `url`; a remote configuration may
    /// name only http(s) assets, a local one local files too. Throws `.invalidInput` when the
    /// document is not a splash configuration.
    public static func parse(_ bytes: [UInt8], url: URL, fetchedAt: Date) throws -> (configuration: SplashConfiguration, warnings: [String]) {
        let name = "splash configuration '\(url.absoluteString)'"
        guard bytes.count <= maxBytes else {
            throw ReelError(.invalidInput, "\(name) is larger than \(maxBytes) bytes")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: bytes)
        } catch {
            throw ReelError(.invalidInput, "\(name) is not JSON: \(error)", cause: error)
        }
        guard case .object(let root) = document else {
            throw ReelError(.invalidInput, "\(name) must be a JSON object with a \"holidaySplash\" array, found \(document.kindDescription)")
        }
        guard case .array(let items)? = root["holidaySplash"] else {
            throw ReelError(.invalidInput, "\(name) has no \"holidaySplash\" array")
        }
        var warnings: [String] = []
        var entries: [SplashEntry] = []
        var seen: [String: Int] = [:]
        let policy = URLPolicy.forTopLevel(url)
        for (index, item) in items.prefix(maxEntries).enumerated() {
            switch entry(item, index: index, base: url, policy: policy) {
            case .success(let entry):
                if let first = seen[entry.id] {
                    warnings.append("\(name): splash '\(entry.id)' (entry \(index)) skipped: duplicate id (first at entry \(first))")
                    continue
                }
                seen[entry.id] = index
                entries.append(entry)
            case .failure(let problem):
                warnings.append("\(name): \(problem.label) (entry \(index)) skipped: \(problem.reason)")
            }
        }
        if items.count > maxEntries {
            warnings.append("\(name): \(items.count - maxEntries) splashes past the first \(maxEntries) skipped")
        }
        return (SplashConfiguration(url: url, fetchedAt: fetchedAt, entries: entries), warnings)
    }

    /// Why one entry was skipped, and how to name it.
    struct Problem: Error {
        var label: String
        var reason: String
    }

    private static func entry(_ item: JSONValue, index: Int, base: URL, policy: URLPolicy) -> Result<SplashEntry, Problem> {
        guard case .object(let fields) = item else {
            return .failure(Problem(label: "splash", reason: "expected an object, found \(item.kindDescription)"))
        }
        let id: String
        switch fields["id"] {
        case .string(let text)? where !text.trimmingCharacters(in: .whitespaces).isEmpty: id = text
        case .int(let number)?: id = String(number)
        default: return .failure(Problem(label: "splash", reason: "no \"id\" (a non-empty string)"))
        }
        let label = "splash '\(LaunchText.escaped(id))'"
        func fail(_ reason: String) -> Result<SplashEntry, Problem> { .failure(Problem(label: label, reason: reason)) }
        guard let startText = fields["startDateTime"]?.string else { return fail("no \"startDateTime\"") }
        guard let start = ISO8601Date.parse(startText) else { return fail("startDateTime '\(LaunchText.escaped(startText))' is not an ISO 8601 date") }
        guard let endText = fields["endDateTime"]?.string else { return fail("no \"endDateTime\"") }
        guard let end = ISO8601Date.parse(endText) else { return fail("endDateTime '\(LaunchText.escaped(endText))' is not an ISO 8601 date") }
        guard end > start else { return fail("endDateTime \(endText) is not after startDateTime \(startText)") }
        guard let assetText = fields["assetUrl"]?.string, !assetText.trimmingCharacters(in: .whitespaces).isEmpty else {
            return fail("no \"assetUrl\"")
        }
        let shownAsset = LaunchText.escaped(assetText)
        guard let resolved = URLResolver.resolve(assetText, against: base) else { return fail("assetUrl '\(shownAsset)' is not a URL") }
        do {
            _ = try policy.check(resolved.absoluteString)
        } catch let error as ReelError {
            return fail("assetUrl '\(shownAsset)': \(LaunchText.escaped(error.message))")
        } catch {
            return fail("assetUrl '\(shownAsset)': \(LaunchText.escaped("\(error)"))")
        }
        var interval = 0.0
        if let value = fields["displayTimeInterval"], value != .null {
            guard let minutes = Self.number(value), minutes.isFinite, minutes >= 0 else {
                return fail("displayTimeInterval \(JSONWriter.compact(value)) is not a number of minutes (0 or more)")
            }
            interval = minutes
        }
        var priority: Int?
        if let value = fields["priority"], value != .null {
            guard let number = Self.number(value), number.isFinite, number == number.rounded(), abs(number) < 1e15 else {
                return fail("priority \(JSONWriter.compact(value)) is not an integer")
            }
            priority = Int(number)
        }
        let name = fields["name"]?.string ?? id
        return .success(SplashEntry(id: id, name: name, start: start, end: end, assetURL: resolved.absoluteString,
                                    displayIntervalMinutes: interval, priority: priority))
    }

    /// A number, or a string holding one in decimal (`"600"`, `"0.5"`, `" 2 "`): what a service
    /// writes in a field the seed documents as text. Anything else (`"ten"`, `"0x10"`, `"inf"`)
    /// is nil.
    static func number(_ value: JSONValue) -> Double? {
        if let number = value.number { return number }
        guard let text = value.string?.trimmingCharacters(in: .whitespaces), (1...64).contains(text.utf8.count) else { return nil }
        var rest = Array(text.utf8)[...]
        func sign() { if let first = rest.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { rest.removeFirst() } }
        func digits() -> Int {
            var count = 0
            while let first = rest.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) { rest.removeFirst(); count += 1 }
            return count
        }
        sign()
        var count = digits()
        if rest.first == UInt8(ascii: ".") {
            rest.removeFirst()
            count += digits()
        }
        guard count > 0 else { return nil }
        if let first = rest.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            rest.removeFirst()
            sign()
            guard digits() > 0 else { return nil }
        }
        guard rest.isEmpty else { return nil }
        return Double(text)
    }
}
