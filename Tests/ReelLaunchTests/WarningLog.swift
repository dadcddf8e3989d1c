import ReelCore

/// The warnings a launch controller or state folder gave, one line each, for tests to read.
final class WarningLog: Sendable {
    private let lines = Locked<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    func add(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}
