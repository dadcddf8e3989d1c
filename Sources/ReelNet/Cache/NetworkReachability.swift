import Foundation
import ReelCore

/// Whether the sources of one job (a play, a prefetch, a feed session) may use the network, judged
/// per host (scheme, host and port): off for every host from the start (`--offline`), or off for
/// one host since a request to it could not connect. A thumbnail host or a variant's host that
/// refuses connections takes only its own requests offline, never the feed's or the master's.
/// For a host that is offline, cache-backed sources serve only complete cache entries and fail
/// fast on the rest, and input resolution plays what the cache holds. Shared by the threads of
/// the job.
public final class NetworkReachability: Sendable {
    private struct State {
        var forced: Bool
        /// The first connection failure of each unreachable host, in the order they failed.
        var failures: [String: ReelError] = [:]
        var order: [String] = []
    }
    private let state: Locked<State>

    public init(forcedOffline: Bool = false) {
        state = Locked(State(forced: forcedOffline))
    }

    /// True when told to stay offline or after a connection failure on `url`'s host.
    public func isOffline(for url: URL) -> Bool {
        let host = Self.host(of: url)
        return state.withLock { $0.forced || $0.failures[host] != nil }
    }

    /// True when told to stay offline (`--offline`).
    public var isForcedOffline: Bool { state.withLock { $0.forced } }

    /// The connection failure that took `url`'s host offline, if any.
    public func failure(for url: URL) -> ReelError? {
        let host = Self.host(of: url)
        return state.withLock { $0.failures[host] }
    }

    /// The hosts found unreachable (`scheme://host:port`), in the order they failed.
    public var unreachableHosts: [String] { state.withLock { $0.order } }

    /// Records `error` from a request for `url`; a failure to reach the server (connect,
    /// resolve) takes that host offline.
    public func note(_ error: any Error, for url: URL) {
        guard let error = error as? ReelError, Self.meansUnreachable(error) else { return }
        let host = Self.host(of: url)
        state.withLock { state in
            guard state.failures[host] == nil else { return }
            state.failures[host] = error
            state.order.append(host)
        }
    }

    /// True for errors that say the network itself is not there (as opposed to a 404 or a 5xx).
    public static func meansUnreachable(_ error: ReelError) -> Bool {
        error.code == .connectionFailed || error.code == .offline
    }

    /// What reachability is judged by: `scheme://host:port`, the port the scheme's default when
    /// the URL names none (a local file or a URL without a host: its scheme alone).
    static func host(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        guard let host = url.host?.lowercased(), !host.isEmpty else { return scheme + ":" }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
        return "\(scheme)://\(host):\(port)"
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
