import Foundation

/// Everything a `CDNServer` needs: the directory, where to listen, the network profile, the
/// faults, and an optional hook that sees every request.
package struct CDNServerConfiguration: Sendable {
    /// The directory served; nothing outside it is ever read.
    package var root: URL
    /// Address to listen on; loopback by default.
    package var host: String
    /// Port to listen on; 0 picks a free one (read it back from `CDNServer.port`).
    package var port: Int
    /// The network profile at start; `CDNServer.setProfile` changes it while running.
    package var profile: NetworkProfile
    /// Seeded fault rates at start; `CDNServer.setFaultInjection` changes them while running.
    package var faults: FaultInjection
    /// Called on the event loop once per request when it is over; keep it short.
    package var requestLog: (@Sendable (RequestLogEntry) -> Void)?

    package init(root: URL, host: String = "127.0.0.1", port: Int = 0, profile: NetworkProfile = .unlimited,
                faults: FaultInjection = .none, requestLog: (@Sendable (RequestLogEntry) -> Void)? = nil) {
        self.root = root
        self.host = host
        self.port = port
        self.profile = profile
        self.faults = faults
        self.requestLog = requestLog
    }

    /// Same, with the directory as a file-system path.
    package init(rootPath: String, host: String = "127.0.0.1", port: Int = 0, profile: NetworkProfile = .unlimited,
                faults: FaultInjection = .none, requestLog: (@Sendable (RequestLogEntry) -> Void)? = nil) {
        self.init(root: URL(fileURLWithPath: rootPath, isDirectory: true), host: host, port: port, profile: profile,
                  faults: faults, requestLog: requestLog)
    }
}
