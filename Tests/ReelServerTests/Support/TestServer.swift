import Foundation
import ReelServer

/// Runs `body` with a fresh `ServedDirectory` and a server on it (127.0.0.1, port 0); stops the
/// server and removes the directory on every path.
func withTestServer<Result>(
    profile: NetworkProfile = .unlimited,
    faults: FaultInjection = .none,
    recorder: RequestRecorder? = nil,
    _ body: (CDNServer, ServedDirectory) async throws -> Result
) async throws -> Result {
    let directory = try await ServedDirectory.make()
    let configuration = CDNServerConfiguration(root: directory.root, profile: profile, faults: faults,
                                               requestLog: recorder?.hook)
    do {
        let result = try await withServer(configuration) { server in try await body(server, directory) }
        await directory.remove()
        return result
    } catch {
        await directory.remove()
        throw error
    }
}

/// Opens a connection, sends one request, reads its response and closes.
func fetch(_ server: CDNServer, _ target: String, method: String = "GET", headers: [String: String] = [:],
           idleTimeout: Duration = .seconds(10)) async throws -> RawResponse {
    let connection = try await RawConnection.open(port: server.port)
    defer { connection.close() }
    return await connection.request(target, method: method, headers: headers, idleTimeout: idleTimeout)
}
