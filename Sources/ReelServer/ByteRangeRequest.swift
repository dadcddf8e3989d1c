/// A parsed `Range: bytes=...` header (RFC 9110 section 14): only the first range of a
/// multi-range request is kept, which a server may answer alone.
enum ByteRangeRequest: Equatable, Sendable {
    /// `bytes=a-b` (b nil for `bytes=a-`): from offset `a` through `b` inclusive.
    case from(Int, through: Int?)
    /// `bytes=-n`: the last `n` bytes.
    case suffix(Int)

    /// How a range applies to a file of a known size.
    enum Resolution: Equatable, Sendable {
        /// Send these bytes with 206 Partial Content.
        case partial(Range<Int>)
        /// No byte of the file is in the range: 416 with `Content-Range: bytes */size`.
        case unsatisfiable
    }

    /// Parses a Range header value; nil when the header is malformed or not in bytes, in which
    /// case the server ignores it and sends the whole file, as RFC 9110 says.
    init?(header: String) {
        let trimmed = header.trimmingSpaces()
        guard trimmed.lowercased().hasPrefix("bytes=") else { return nil }
        let specs = trimmed.dropFirst("bytes=".count)
        guard let first = specs.split(separator: ",", omittingEmptySubsequences: false).first else { return nil }
        let spec = String(first).trimmingSpaces()
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        let startText = spec[..<dash]
        let endText = spec[spec.index(after: dash)...]
        if startText.isEmpty {
            guard let count = Self.digits(endText) else { return nil }
            self = .suffix(count)
            return
        }
        guard let start = Self.digits(startText) else { return nil }
        if endText.isEmpty {
            self = .from(start, through: nil)
            return
        }
        guard let end = Self.digits(endText), end >= start else { return nil }
        self = .from(start, through: end)
    }

    /// Applies the range to a file of `size` bytes: clamps the end to the file, and answers
    /// unsatisfiable when the start is past the end or a suffix asks for zero bytes.
    func resolve(size: Int) -> Resolution {
        switch self {
        case .from(let start, let end):
            guard start < size else { return .unsatisfiable }
            let last = min(end ?? (size - 1), size - 1)
            return .partial(start..<(last + 1))
        case .suffix(let count):
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .partial(max(0, size - count)..<size)
        }
    }

    /// A non-negative decimal integer made only of ASCII digits (no sign, no spaces), or nil.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
