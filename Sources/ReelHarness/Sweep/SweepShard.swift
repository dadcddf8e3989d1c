import Foundation
import ReelCore
import ReelEngine
import ReelReport

/// Which cells one process runs: those whose index mod `count` is `index`. Given as `i/n`, or
/// read from the batch system (`auto`): a Kubernetes indexed job's `JOB_COMPLETION_INDEX` with
/// the total in `REEL_SHARD_COUNT` (or `JOB_COMPLETIONS`), or a Slurm array's
/// `SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`, out of `SLURM_ARRAY_TASK_COUNT`.
package struct SweepShard: Sendable, Equatable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package static let whole = SweepShard(index: 0, count: 1)

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `i/n` or `auto` (reading `environment`); errors name the value and what is wrong.
    package init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if text == "auto" {
            self = try Self.fromBatchSystem(environment)
            return
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ReelError(.invalidInput, "--shard wants i/n (such as 0/4) or auto; got '\(text)'")
        }
        try self.init(checking: index, count, from: "--shard \(text)")
    }

    private init(checking index: Int, _ count: Int, from source: String) throws {
        guard count >= 1, count <= 1_000_000 else { throw ReelError(.invalidInput, "\(source): the shard count must be 1 or more") }
        guard index >= 0, index < count else {
            throw ReelError(.invalidInput, "\(source): shard \(index) is outside 0..<\(count)")
        }
        self.index = index
        self.count = count
    }

    private static func fromBatchSystem(_ environment: [String: String]) throws -> SweepShard {
        func number(_ name: String) throws -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text) else { throw ReelError(.invalidInput, "--shard auto: \(name)='\(text)' is not a number") }
            return value
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            guard let count = try number("REEL_SHARD_COUNT") ?? number("JOB_COMPLETIONS") else {
                throw ReelError(.invalidInput, "--shard auto: JOB_COMPLETION_INDEX is set but not the total; set REEL_SHARD_COUNT (the job's completions)")
            }
            return try SweepShard(checking: index, count, from: "--shard auto (Kubernetes)")
        }
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            guard let count = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw ReelError(.invalidInput, "--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT")
            }
            let first = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            let (index, overflow) = task.subtractingReportingOverflow(first)
            guard !overflow else {
                throw ReelError(.invalidInput, "--shard auto (Slurm): SLURM_ARRAY_TASK_ID=\(task) less SLURM_ARRAY_TASK_MIN=\(first) is out of range")
            }
            return try SweepShard(checking: index, count, from: "--shard auto (Slurm)")
        }
        throw ReelError(.invalidInput, "--shard auto: no batch index found (JOB_COMPLETION_INDEX for a Kubernetes indexed job, SLURM_ARRAY_TASK_ID for a Slurm array)")
    }

    package func includes(_ cell: SweepCell) -> Bool { cell.index % count == index }

    package var description: String { "\(index)/\(count)" }
}
