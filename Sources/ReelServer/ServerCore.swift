import NIOPosix
import Synchronization
import ReelCore

/// The state every connection of one server shares: the real root, the profile, the fault
/// planner, the bill and the open connections. Thread-safe: each mutable part has its own `Locked`.
final class ServerCore: Sendable {
    /// The served directory after `realpath`.
    let root: String
    let ledger = BillLedger()
    let faults: FaultPlanner
    let connections = ConnectionRegistry()
    let requestLog: (@Sendable (RequestLogEntry) -> Void)?
    /// Where blocking file calls run (open, fstat, pread).
    let threadPool: NIOThreadPool
    private let currentProfile: Locked<NetworkProfile>
    private let connectionCount = Atomic<Int>(0)

    init(root: String, configuration: CDNServerConfiguration, threadPool: NIOThreadPool) {
        self.root = root
        self.faults = FaultPlanner(injection: configuration.faults)
        self.requestLog = configuration.requestLog
        self.threadPool = threadPool
        self.currentProfile = Locked(configuration.profile)
    }

    var profile: NetworkProfile {
        get { currentProfile.withLock { $0 } }
        set { currentProfile.withLock { $0 = newValue } }
    }

    /// The next connection number, from 1.
    func nextConnectionID() -> Int {
        connectionCount.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
