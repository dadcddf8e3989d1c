import Foundation
import ReelCore

/// Reads numeric and range attributes of MPD elements, failing with a message that names the
/// element, the attribute and the line.
struct DASHAttributeReader {
    let url: URL

    func failure(_ line: Int, _ message: String) -> DASHFailure {
        DASHFailure(url: url, line: line, message: message)
    }

    func integer(_ element: XMLTree.Element, _ name: String) throws -> Int64? {
        guard let text = element[name] else { return nil }
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else {
            throw failure(element.line, "\(element.name)@\(name) '\(text)' is not an integer")
        }
        return value
    }

    func positiveInteger(_ element: XMLTree.Element, _ name: String) throws -> Int64? {
        guard let value = try integer(element, name) else { return nil }
        guard value > 0 else { throw failure(element.line, "\(element.name)@\(name) '\(value)' is not positive") }
        return value
    }

    /// An unsigned attribute (`S@t`, `@startNumber`, `@presentationTimeOffset`): a negative
    /// value would make negative media times and segment numbers.
    func nonNegativeInteger(_ element: XMLTree.Element, _ name: String) throws -> Int64? {
        guard let value = try integer(element, name) else { return nil }
        guard value >= 0 else { throw failure(element.line, "\(element.name)@\(name) '\(value)' is negative") }
        return value
    }

    /// `first-last` (inclusive) as a ByteRange.
    func range(_ text: String, _ element: XMLTree.Element, _ name: String) throws -> ByteRange {
        let parts = text.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let first = Int64(parts[0].trimmingCharacters(in: .whitespaces)),
            let last = Int64(parts[1].trimmingCharacters(in: .whitespaces)), first >= 0, last >= first,
            last < Int64.max
        else {
            throw failure(element.line, "\(element.name)@\(name) '\(text)' is not a byte range 'first-last'")
        }
        return ByteRange(offset: first, length: last - first + 1)
    }
}
