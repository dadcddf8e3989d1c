import Foundation
import ReelCore
import ReelEngine
import ReelReport

/// Combines the results folders of a sweep's shards into one: every folder must hold the same
/// matrix (a folder of another sweep is refused by name); each cell's folder is copied from the
/// first input that finished it (a finished cell wins over a failed one); cells no input holds
/// are reported as missing.
public enum SweepMerge {
    public struct Outcome: Sendable {
        public var matrix: SweepMatrix
        public var copied: Int
        public var missing: [SweepCell]
    }

    public static func merge(_ inputs: [SweepFolder], into output: SweepFolder) throws -> Outcome {
        guard let first = inputs.first else { throw ReelError(.invalidInput, "merge needs at least one results folder") }
        let matrix = try first.loadMatrix()
        for input in inputs.dropFirst() {
            let other = try input.loadMatrix()
            guard other.id == matrix.id else {
                throw ReelError(.invalidInput, "'\(input.path)' holds another sweep's results (matrix \(other.id), '\(first.path)' holds \(matrix.id))")
            }
        }
        try output.writeMatrix(matrix)
        var copied = 0
        var missing: [SweepCell] = []
        for cell in matrix.cells {
            if case .done = try output.status(of: cell) { continue }
            var source: SweepFolder?
            for input in inputs where input.url != output.url {
                switch try input.status(of: cell) {
                case .done: source = input
                case .failed: if source == nil { source = input }
                case .missing: continue
                }
                if case .done = try input.status(of: cell) { break }
            }
            guard let source else {
                if case .missing = try output.status(of: cell) { missing.append(cell) }
                continue
            }
            let target = output.cellFolder(cell.id)
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
                try FileManager.default.copyItem(at: source.cellFolder(cell.id), to: target)
            } catch {
                throw ReelError(.invalidInput, "cannot copy cell \(cell.id) from '\(source.path)' to '\(output.path)': \(error.localizedDescription)")
            }
            copied += 1
        }
        return Outcome(matrix: matrix, copied: copied, missing: missing)
    }
}
