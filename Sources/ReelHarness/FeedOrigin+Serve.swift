import Foundation
import ReelCore
import ReelServer

extension FeedOrigin {
    /// This folder served under the network profile named `profile` (wifi, 4g, 3g, unlimited,
    /// or trace:FILE), for a caller that does not link the simulator itself (the viewer).
    package static func serve(path: String, profileNamed profile: String) throws -> FeedOrigin {
        try serve(path: path, profile: NetworkProfile.parse(profile, allowOffline: false))
    }

    /// Runs `body` with the base URL of the feed's files: a served folder's simulator runs on
    /// 127.0.0.1 for the body's length and stops on every path, throws included; a remote
    /// origin's URL and a running simulator's are used as they are.
    package func withBaseURL<Result: Sendable>(_ body: (URL) async throws -> Result) async throws -> Result {
        switch self {
        case .serve(let folder, let profile, let faults):
            return try await withServer(CDNServerConfiguration(root: folder, profile: profile, faults: faults)) { server in
                try await body(server.baseURL)
            }
        case .simulator(let server):
            return try await body(server.baseURL)
        case .remote(let url):
            return try await body(url)
        }
    }
}
