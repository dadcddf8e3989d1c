import ReelCore

/// The challenge's data files are lines of whitespace-separated numbers; this reads them with
/// errors that name the file and the line, within a size limit, without a crash on any bytes.
enum MMGCText {
    /// One non-blank line: its 1-based number and its fields.
    struct Line {
        var number: Int
        var fields: [Substring]
    }

    /// The non-blank lines of the file at `path` (`what` names it in errors: "chunk sizes").
    static func lines(_ path: String, what: String, maxBytes: Int = MMGCLimits.maxFileBytes) throws -> [Line] {
        let bytes = try FileBytes.read(path, what: what, code: .invalidInput, maxBytes: maxBytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ReelError(.invalidInput, "\(what) '\(path)' is not text (not UTF-8)")
        }
        var lines: [Line] = []
        var number = 0
        // By bytes: "\r\n" is one Character, so a split on "\n" would miss Windows line ends.
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            let fields = Substring(raw).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            lines.append(Line(number: number, fields: fields))
        }
        return lines
    }

    /// Field `index` of `line` as a finite number.
    static func number(_ line: Line, _ index: Int, in path: String, what: String) throws -> Double {
        guard index < line.fields.count else {
            throw ReelError(.invalidInput, "\(path) line \(line.number): expected \(what), found only \(line.fields.count) field(s)")
        }
        let field = line.fields[index]
        guard let value = Double(field), value.isFinite else {
            throw ReelError(.invalidInput, "\(path) line \(line.number): \(what) '\(field.prefix(40))' is not a finite number")
        }
        return value
    }

    /// Field `index` of `line` as a whole number of at least `minimum`.
    static func integer(_ line: Line, _ index: Int, minimum: Int, in path: String, what: String) throws -> Int {
        guard index < line.fields.count else {
            throw ReelError(.invalidInput, "\(path) line \(line.number): expected \(what), found nothing")
        }
        let field = line.fields[index]
        guard let value = Int(field) else {
            throw ReelError(.invalidInput, "\(path) line \(line.number): \(what) '\(field.prefix(40))' is not a whole number")
        }
        guard value >= minimum else {
            throw ReelError(.invalidInput, "\(path) line \(line.number): \(what) \(value) is below \(minimum)")
        }
        return value
    }
}

/// What the reader accepts at most, so a hostile or mistaken folder costs bounded memory and time.
package enum MMGCLimits {
    /// Bytes of one data file.
    package static let maxFileBytes = 64 << 20
    /// Videos in a dataset.
    package static let maxVideos = 1000
    /// Chunks of one video.
    package static let maxChunks = 100_000
    /// Traces in one folder.
    package static let maxTraces = 10_000
    /// Rows of one trace.
    package static let maxTraceRows = 2_000_000
    /// The mean bandwidth, in Mbit/s, below which a trace is refused: the link would take
    /// unbounded time to carry a chunk.
    package static let minMeanMbps = 0.001
}
