import ReelCore

/// Whether the sources of one job (a play, a prefetch) may use the network: off from the start
/// (`--offline`), or off since a request could not connect (the network is unreachable). Once
/// offline, cache-backed sources serve only complete cache entries and fail fast on the rest,
/// and input resolution plays what the cache holds. Shared by the threads of the job.
public final class NetworkReachability: Sendable {
    private struct State {
        var forced: Bool
        var failure: ReelError?
    }
    private let state: Locked<State>

    public init(forcedOffline: Bool = false) {
        state = Locked(State(forced: forcedOffline, failure: nil))
    }

    /// True when told to stay offline or after a connection failure.
    public var isOffline: Bool { state.withLock { $0.forced || $0.failure != nil } }

    /// True when told to stay offline (`--offline`).
    public var isForcedOffline: Bool { state.withLock { $0.forced } }

    /// The connection failure that took the job offline, if any.
    public var failure: ReelError? { state.withLock { $0.failure } }

    /// Records `error`; a failure to reach the server (connect, resolve) takes the job offline.
    public func note(_ error: any Error) {
        guard let error = error as? ReelError, Self.meansUnreachable(error) else { return }
        state.withLock { if $0.failure == nil { $0.failure = error } }
    }

    /// True for errors that say the network itself is not there (as opposed to a 404 or a 5xx).
    public static func meansUnreachable(_ error: ReelError) -> Bool {
        error.code == .connectionFailed || error.code == .offline
    }
}

/// The cache behind a data source factory and the reachability its sources share: what input
/// resolution needs to pin offline playback to what is cached.
public struct CacheContext: Sendable {
    public let cache: Cache
    public let reachability: NetworkReachability

    public init(cache: Cache, reachability: NetworkReachability) {
        self.cache = cache
        self.reachability = reachability
    }
}
