import Foundation
import ReelCore
import ReelEngine

/// A sweep's results folder: `sweep.json` (the matrix) and one folder per cell, named by the
/// cell's id, holding its `summary.json` (written last, atomically: a cell with one is done),
/// `events.jsonl`, `report.html` and `trace.json`, or `failed.json` when its session failed.
///
///     DIR/sweep.json
///     DIR/cells/<cell id>/summary.json | failed.json
///     DIR/cells/<cell id>/events.jsonl, report.html, trace.json
///
/// Nothing under DIR is reached through a symbolic link (see `SweepFiles`): a link there is an
/// error naming it. DIR itself may be one.
package struct SweepFolder: Sendable {
    /// Files larger than these are refused before they are read (a matrix of a million cells is
    /// about 200 MB; a summary a few KB).
    static let maxMatrixBytes = 256 << 20
    static let maxSummaryBytes = 64 << 20
    static let maxFailureBytes = 1 << 20

    package let url: URL

    package init(_ path: String) {
        url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    package var path: String { url.path }
    package var matrixPath: String { url.appendingPathComponent("sweep.json").path }
    package func cellFolder(_ id: String) -> URL { url.appendingPathComponent("cells/\(id)", isDirectory: true) }
    package func summaryPath(_ id: String) -> String { cellFolder(id).appendingPathComponent("summary.json").path }
    package func failurePath(_ id: String) -> String { cellFolder(id).appendingPathComponent("failed.json").path }
    package func eventsPath(_ id: String) -> String { cellFolder(id).appendingPathComponent("events.jsonl").path }
    package func reportPath(_ id: String) -> String { cellFolder(id).appendingPathComponent("report.html").path }
    package func tracePath(_ id: String) -> String { cellFolder(id).appendingPathComponent("trace.json").path }

    /// Where a cell stands.
    package enum Status: Sendable {
        case done(SessionSummary)
        case failed(String)
        case missing
    }

    /// The matrix of this folder, checked whole (see `SweepMatrix.init(from:)`); errors name the
    /// folder and what is wrong with it.
    package func loadMatrix() throws -> SweepMatrix {
        switch try SweepFiles.kind(under: path, ["sweep.json"]) {
        case .missing: throw ReelError(.invalidInput, "'\(path)' is not a sweep results folder: it has no sweep.json")
        case .file: break
        default: throw ReelError(.invalidInput, "sweep matrix '\(matrixPath)' is not a file")
        }
        let bytes = try FileBytes.read(matrixPath, what: "sweep matrix", code: .invalidInput, maxBytes: Self.maxMatrixBytes)
        do {
            return try JSONParser.parse(bytes: bytes).decode(SweepMatrix.self)
        } catch let error as JSONParser.SyntaxError {
            throw ReelError(.invalidInput, "sweep matrix '\(matrixPath)' is not valid JSON (\(error.description))")
        } catch let error as ReelError {
            throw ReelError(.invalidInput, "sweep matrix '\(matrixPath)': \(error.message)")
        }
    }

    /// Writes the matrix (creating the folder); refuses a folder holding another matrix.
    package func writeMatrix(_ matrix: SweepMatrix) throws {
        if FileManager.default.fileExists(atPath: matrixPath) {
            let existing = try loadMatrix()
            guard existing.id == matrix.id else {
                throw ReelError(.invalidInput, "'\(path)' holds the results of another sweep (matrix \(existing.id), this one is \(matrix.id)); give a new --output folder")
            }
            return
        }
        try Self.write(JSONWriter.pretty(try JSONValue(encoding: matrix)) + "\n", to: matrixPath)
    }

    /// Whether a cell is done, failed or missing; a summary that does not read is an error
    /// naming its file (writes are atomic, so it was damaged after the fact), and so is a link.
    package func status(of cell: SweepCell) throws -> Status {
        let summary = summaryPath(cell.id)
        if try cellFile(cell, "summary.json", at: summary, limit: Self.maxSummaryBytes) {
            do {
                return .done(try SessionSummary.load(path: summary)[0])
            } catch let error as ReelError {
                throw ReelError(.invalidInput, "cell \(cell.id): \(error.message); delete the cell's folder to run it again")
            }
        }
        let failure = failurePath(cell.id)
        if try cellFile(cell, "failed.json", at: failure, limit: Self.maxFailureBytes) {
            let bytes = try FileBytes.read(failure, what: "cell failure", code: .invalidInput, maxBytes: Self.maxFailureBytes)
            let message = (try? JSONParser.parse(bytes: bytes))?["message"]?.string
            return .failed(message ?? "the session failed (no message in '\(failure)')")
        }
        return .missing
    }

    /// Whether the cell's folder holds `name` as a regular file of at most `limit` bytes (false:
    /// it does not hold it); anything else there is an error naming it.
    private func cellFile(_ cell: SweepCell, _ name: String, at path: String, limit: Int) throws -> Bool {
        switch try SweepFiles.kind(under: self.path, ["cells", cell.id, name]) {
        case .missing: return false
        case .file:
            if let size = try SweepFiles.size(path), size > Int64(limit) {
                throw ReelError(.invalidInput, "cell \(cell.id): '\(path)' is \(size) bytes, over the limit of \(limit) bytes")
            }
            return true
        default: throw ReelError(.invalidInput, "cell \(cell.id): '\(path)' is not a file")
        }
    }

    /// The names in `cells/`, listed once (none when it does not exist): what a merge looks up
    /// instead of asking the disk for every cell.
    package func cellNames() throws -> Set<String> {
        switch try SweepFiles.kind(under: path, ["cells"]) {
        case .missing: return []
        case .directory: return Set(try SweepFiles.names(in: url.appendingPathComponent("cells").path))
        default: throw ReelError(.invalidInput, "'\(url.appendingPathComponent("cells").path)' is not a folder")
        }
    }

    /// Every cell's summary and failure, by id.
    package func results(_ matrix: SweepMatrix) throws -> (summaries: [String: SessionSummary], failures: [String: String]) {
        var summaries: [String: SessionSummary] = [:], failures: [String: String] = [:]
        for cell in matrix.cells {
            switch try status(of: cell) {
            case .done(let summary): summaries[cell.id] = summary
            case .failed(let message): failures[cell.id] = message
            case .missing: continue
            }
        }
        return (summaries, failures)
    }

    /// Writes `text` to `path` whole or not at all: a temporary file beside it, then a rename
    /// (a killed sweep never leaves half a file under the real name).
    package static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw ReelError(.invalidInput, "cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}
