import NIOCore
import NIOPosix
import Synchronization
import ReelCore

/// The state every connection of one server shares: the real root, the profile and each client's
/// link, the fault planner, the bill and the open connections. Thread-safe: each mutable part has
/// its own `Locked`.
final class ServerCore: Sendable {
    /// The served directory after `realpath`.
    let root: String
    let ledger = BillLedger()
    let faults: FaultPlanner
    let connections = ConnectionRegistry()
    let requestLog: (@Sendable (RequestLogEntry) -> Void)?
    /// Where blocking file calls run (open, fstat, pread).
    let threadPool: NIOThreadPool
    private let network: Locked<Network>
    private let connectionCount = Atomic<Int>(0)

    init(root: String, configuration: CDNServerConfiguration, threadPool: NIOThreadPool) {
        self.root = root
        self.faults = FaultPlanner(injection: configuration.faults)
        self.requestLog = configuration.requestLog
        self.threadPool = threadPool
        self.network = Locked(Network(profile: configuration.profile, epoch: Self.now))
    }

    /// The profile in force, when it took effect (a trace's time 0), its schedule (indexed once)
    /// and each client's link.
    private struct Network {
        var profile: NetworkProfile
        var epoch: UInt64
        var schedule: LinkSchedule
        var links: [String: LinkShaper] = [:]

        init(profile: NetworkProfile, epoch: UInt64) {
            self.profile = profile
            self.epoch = epoch
            schedule = LinkSchedule(profile)
        }
    }

    /// Setting a profile starts its trace over and gives every client a fresh link.
    var profile: NetworkProfile {
        get { network.withLock { $0.profile } }
        set {
            let fresh = Network(profile: newValue, epoch: Self.now)
            network.withLock { $0 = fresh }
        }
    }

    /// The latency before the head of a response starting now.
    func latencyMilliseconds() -> Int {
        network.withLock { $0.profile.latency(at: Double(Self.now &- $0.epoch) / 1e9) }
    }

    /// The link's rate now (nil: unlimited), to size body chunks.
    func bytesPerSecond() -> Double? {
        network.withLock { $0.profile.rate(at: Double(Self.now &- $0.epoch) / 1e9).bytesPerSecond }
    }

    /// Reserves `byteCount` bytes on `client`'s link (its address: all its connections share
    /// it) and returns the nanoseconds to wait before writing them.
    func pace(_ byteCount: Int, client: String) -> UInt64 {
        let now = Self.now
        return network.withLock { network in
            guard !network.schedule.isUnlimited else { return 0 }
            return network.links[client, default: LinkShaper()]
                .take(byteCount, schedule: network.schedule, epoch: network.epoch, now: now)
        }
    }

    /// Now on the monotonic clock NIO schedules by, in nanoseconds.
    static var now: UInt64 { NIODeadline.now().uptimeNanoseconds }

    /// The next connection number, from 1.
    func nextConnectionID() -> Int {
        connectionCount.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
