import Foundation
import ReelCore
import ReelEngine
import ReelReport

/// Combines the results folders of a sweep's shards into one: every folder must hold the same
/// matrix (a folder of another sweep is refused by name); each cell's folder is copied from the
/// first input that finished it (a finished cell wins over a failed one); cells no input holds
/// are reported as missing. Writes only under the output folder and follows no symbolic link in
/// any folder (a link is an error naming it); each input's `cells/` is listed once, so the work
/// grows with the cells, not with cells times inputs.
package enum SweepMerge {
    package struct Outcome: Sendable {
        package var matrix: SweepMatrix
        package var copied: Int
        package var missing: [SweepCell]
    }

    package static func merge(_ inputs: [SweepFolder], into output: SweepFolder) throws -> Outcome {
        guard let first = inputs.first else { throw ReelError(.invalidInput, "merge needs at least one results folder") }
        let matrix = try first.loadMatrix()
        for input in inputs.dropFirst() {
            let other = try input.loadMatrix()
            guard other.id == matrix.id else {
                throw ReelError(.invalidInput, "'\(input.path)' holds another sweep's results (matrix \(other.id), '\(first.path)' holds \(matrix.id))")
            }
        }
        try output.writeMatrix(matrix)
        let sources = inputs.filter { $0.url != output.url }
        // Which inputs hold a folder of each name.
        var holders: [String: [Int]] = [:]
        for (position, input) in sources.enumerated() {
            for name in try input.cellNames() { holders[name, default: []].append(position) }
        }
        let present = try output.cellNames()
        let cells = output.url.appendingPathComponent("cells").path
        if try SweepFiles.kind(cells) == .missing { try SweepFiles.makeFolder(cells) }
        var copied = 0
        var missing: [SweepCell] = []
        for cell in matrix.cells {
            let held = present.contains(cell.id) ? try output.status(of: cell) : .missing
            if case .done = held { continue }
            var source: SweepFolder?
            search: for position in holders[cell.id] ?? [] {
                switch try sources[position].status(of: cell) {
                case .done:
                    source = sources[position]
                    break search
                case .failed: if source == nil { source = sources[position] }
                case .missing: continue
                }
            }
            guard let source else {
                if case .missing = held { missing.append(cell) }
                continue
            }
            try copy(cell, from: source, into: output, cells: cells)
            copied += 1
        }
        return Outcome(matrix: matrix, copied: copied, missing: missing)
    }

    /// Copies the cell's folder beside its place in the output, then renames it into place: a
    /// merge killed halfway leaves the old folder or the new one, never half of one.
    private static func copy(_ cell: SweepCell, from source: SweepFolder, into output: SweepFolder, cells: String) throws {
        let target = cells + "/" + cell.id, temporary = cells + "/." + cell.id + ".merging"
        do {
            try SweepFiles.removeTree(temporary)
            try SweepFiles.copyTree(from: source.cellFolder(cell.id).path, to: temporary)
            try SweepFiles.removeTree(target)
            try SweepFiles.rename(temporary, to: target)
        } catch let error as ReelError {
            throw ReelError(.invalidInput, "cannot copy cell \(cell.id) from '\(source.path)' to '\(output.path)': \(error.message)")
        }
    }
}
