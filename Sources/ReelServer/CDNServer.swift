#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ReelCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// A static file server on SwiftNIO that behaves like a CDN seen from a phone: Range, keep-alive,
/// network profiles, seeded and scheduled faults, and a bill of what it served.
///
/// Prefer `withServer(_:_:)`, which stops the server on every path; a server from `start(_:)`
/// must be stopped with `stop()`.
package final class CDNServer: Sendable {
    /// What the server was started with (the profile and faults may have changed since).
    package let configuration: CDNServerConfiguration
    /// The address it listens on.
    package let host: String
    /// The port it listens on (the one the system picked when the configuration said 0).
    package let port: Int
    /// `http://host:port/`, to resolve served paths against.
    package let baseURL: URL

    private let core: ServerCore
    private let listener: any Channel
    private let stopped = Locked(false)

    private init(configuration: CDNServerConfiguration, core: ServerCore, listener: any Channel, port: Int) {
        self.configuration = configuration
        self.core = core
        self.listener = listener
        self.host = configuration.host
        self.port = port
        let hostInURL = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        self.baseURL = URL(string: "http://\(hostInURL):\(port)/")!
    }

    /// Checks the configuration, binds the listening socket and starts serving.
    /// Throws `CDNServerError` for a missing directory, a bad rate, or an address in use.
    package static func start(_ configuration: CDNServerConfiguration) async throws -> CDNServer {
        try configuration.faults.validate()
        guard (0...65_535).contains(configuration.port) else {
            throw CDNServerError(.invalidConfiguration, "port \(configuration.port) is outside 0...65535")
        }
        let threadPool = NIOThreadPool.singleton
        let rootPath = configuration.root.path
        let root = try await threadPool.runIfActive { () throws -> String in
            try Self.realDirectory(rootPath)
        }
        let core = ServerCore(root: root, configuration: configuration, threadPool: threadPool)
        // NIO's shared event loops and thread pool: nothing to shut down, so no server can leak
        // threads, and work still in flight when a server stops has live loops to finish on.
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                guard core.connections.add(channel) else {
                    return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withPipeliningAssistance: true, withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        CDNRequestHandler(core: core, connectionID: core.nextConnectionID()))
                }
            }
        let listener: any Channel
        do {
            listener = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            throw CDNServerError(.bindFailed, "cannot listen on \(configuration.host):\(configuration.port)",
                                 cause: Self.bindFailureReason(error))
        }
        let port = listener.localAddress?.port ?? configuration.port
        return CDNServer(configuration: configuration, core: core, listener: listener, port: port)
    }

    /// Stops accepting and closes every connection at once (stalled ones included); returns when
    /// they are closed. Safe to call more than once.
    package func stop() async {
        let alreadyStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !alreadyStopped else { return }
        try? await listener.close()
        await core.connections.shutDown()
    }

    /// The URL of a served path (`"hls/master.m3u8"` or `"/hls/master.m3u8"`).
    package func url(for path: String) -> URL {
        let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return URL(string: relative, relativeTo: baseURL)?.absoluteURL ?? baseURL.appendingPathComponent(relative)
    }

    // MARK: Network profile

    /// The network profile in force.
    package var profile: NetworkProfile { core.profile }

    /// Switches the network profile for every request from now on; a bandwidth change also applies
    /// to bodies being sent. Switching to an offline profile closes every open connection at once.
    package func setProfile(_ profile: NetworkProfile) {
        core.profile = profile
        if profile.isOffline {
            core.connections.closeAll()
        }
    }

    // MARK: Faults

    /// The seeded fault rates in force.
    package var faultInjection: FaultInjection { core.faults.injection }

    /// Replaces the seeded fault rates (per-path request numbering continues).
    package func setFaultInjection(_ faults: FaultInjection) throws(CDNServerError) {
        try faults.validate()
        core.faults.injection = faults
    }

    /// Injects `fault` into the next `count` requests of `path` (`"/seg1.ts"`; a query string is
    /// ignored), ahead of the seeded rates. Faults queued for a path apply in order. A reset or
    /// stall that meets a response without a body (HEAD, 404, 416) is used up without effect;
    /// `afterBytes` is clamped to the body (a Range response's body is the range).
    package func injectFault(_ fault: Fault, path: String, count: Int = 1) {
        core.faults.schedule(fault, path: RequestPath.key(for: path), count: count)
    }

    /// Drops every fault queued by `injectFault` and not yet used.
    package func clearInjectedFaults() {
        core.faults.clearScheduled()
    }

    /// Faults queued by `injectFault` and not yet used, per path.
    package var pendingInjectedFaults: [String: [Fault]] { core.faults.pendingScheduled }

    // MARK: The bill

    /// A snapshot of the bill so far.
    package func bill() -> CDNBill { core.ledger.snapshot() }

    /// Waits until the bill satisfies `condition` (checked after every change the simulator makes
    /// to it, no polling); returns that bill, or nil when `limit` passes first.
    package func waitForBill(limit: Duration = .seconds(60), until condition: @escaping @Sendable (CDNBill) -> Bool) async -> CDNBill? {
        let ledger = core.ledger
        guard await ledger.changes.wait(limit: limit, until: { condition(ledger.snapshot()) }) else { return nil }
        return ledger.snapshot()
    }

    /// Starts a new bill: counts go to zero; open connections and requests in flight stay counted
    /// as open, so the peaks start from them.
    package func resetBill() { core.ledger.reset() }

    // MARK: Helpers

    /// The real path of `path`, which must be a readable directory. Blocking: thread pool only.
    /// The C functions underneath are `realpath` and `stat`.
    private static func realDirectory(_ path: String) throws(CDNServerError) -> String {
        guard let resolved = realpath(path, nil) else {
            let reason = String(cString: strerror(errno))
            throw CDNServerError(.invalidRoot, "cannot serve '\(path)': \(reason)")
        }
        let real = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw CDNServerError(.invalidRoot, "cannot serve '\(path)': not a directory")
        }
        guard access(real, R_OK | X_OK) == 0 else {
            throw CDNServerError(.invalidRoot, "cannot serve '\(path)': not readable")
        }
        return real
    }

    /// A short reason for a failed bind ("address already in use"), from the errno when there is one.
    private static func bindFailureReason(_ error: any Error) -> CDNServerError {
        if let ioError = error as? IOError {
            return CDNServerError(.bindFailed, String(cString: strerror(ioError.errnoCode)).lowercased())
        }
        return CDNServerError(.bindFailed, String(describing: error))
    }
}
