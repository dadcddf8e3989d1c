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
public struct SweepFolder: Sendable {
    public let url: URL

    public init(_ path: String) {
        url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    public var path: String { url.path }
    public var matrixPath: String { url.appendingPathComponent("sweep.json").path }
    public func cellFolder(_ id: String) -> URL { url.appendingPathComponent("cells/\(id)", isDirectory: true) }
    public func summaryPath(_ id: String) -> String { cellFolder(id).appendingPathComponent("summary.json").path }
    public func failurePath(_ id: String) -> String { cellFolder(id).appendingPathComponent("failed.json").path }
    public func eventsPath(_ id: String) -> String { cellFolder(id).appendingPathComponent("events.jsonl").path }
    public func reportPath(_ id: String) -> String { cellFolder(id).appendingPathComponent("report.html").path }
    public func tracePath(_ id: String) -> String { cellFolder(id).appendingPathComponent("trace.json").path }

    /// Where a cell stands.
    public enum Status: Sendable {
        case done(SessionSummary)
        case failed(String)
        case missing
    }

    /// The matrix of this folder; errors name the folder and what is wrong with it.
    public func loadMatrix() throws -> SweepMatrix {
        guard FileManager.default.fileExists(atPath: matrixPath) else {
            throw ReelError(.invalidInput, "'\(path)' is not a sweep results folder: it has no sweep.json")
        }
        let bytes = try FileBytes.read(matrixPath, what: "sweep matrix", code: .invalidInput)
        let matrix: SweepMatrix
        do {
            matrix = try JSONParser.parse(bytes: bytes).decode(SweepMatrix.self)
        } catch let error as JSONParser.SyntaxError {
            throw ReelError(.invalidInput, "sweep matrix '\(matrixPath)' is not valid JSON (\(error.description))")
        } catch let error as ReelError {
            throw ReelError(.invalidInput, "sweep matrix '\(matrixPath)': \(error.message)")
        }
        guard matrix.version == SweepMatrix.formatVersion else {
            throw ReelError(.invalidInput, "sweep matrix '\(matrixPath)' has format \(matrix.version); this reel reads \(SweepMatrix.formatVersion)")
        }
        return matrix
    }

    /// Writes the matrix (creating the folder); refuses a folder holding another matrix.
    public func writeMatrix(_ matrix: SweepMatrix) throws {
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
    /// naming its file (writes are atomic, so it was damaged after the fact).
    public func status(of cell: SweepCell) throws -> Status {
        let summary = summaryPath(cell.id)
        if FileManager.default.fileExists(atPath: summary) {
            do {
                return .done(try SessionSummary.load(path: summary)[0])
            } catch let error as ReelError {
                throw ReelError(.invalidInput, "cell \(cell.id): \(error.message); delete the cell's folder to run it again")
            }
        }
        let failure = failurePath(cell.id)
        if FileManager.default.fileExists(atPath: failure) {
            let bytes = try FileBytes.read(failure, what: "cell failure", code: .invalidInput)
            let message = (try? JSONParser.parse(bytes: bytes))?["message"]?.string
            return .failed(message ?? "the session failed (no message in '\(failure)')")
        }
        return .missing
    }

    /// Every cell's summary and failure, by id.
    public func results(_ matrix: SweepMatrix) throws -> (summaries: [String: SessionSummary], failures: [String: String]) {
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
    public static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw ReelError(.invalidInput, "cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}
