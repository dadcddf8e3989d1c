import Foundation
import ReelServer
import Testing

@Suite("Lifecycle: start, stop, errors")
struct LifecycleTests {
    private struct Planned: Error {}

    @Test func baseURLAndURLs() async throws {
        try await withTestServer { server, _ throws in
            #expect(server.port > 0)
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)/")
            #expect(server.url(for: "/hls/seg1.ts").absoluteString == "http://127.0.0.1:\(server.port)/hls/seg1.ts")
            #expect(server.url(for: "hls/seg1.ts") == server.url(for: "/hls/seg1.ts"))
        }
    }

    @Test func withServerStopsWhenTheBodyThrows() async throws {
        let directory = try await ServedDirectory.make()
        var kept: RawConnection?
        await #expect(throws: Planned.self) {
            try await withServer(CDNServerConfiguration(root: directory.root)) { server in
                // A kept-alive connection: the server closes it only when it stops. (Connecting to the
                // port afterwards would race other tests' servers, which may be given the same port.)
                let connection = try await RawConnection.open(port: server.port)
                kept = connection
                #expect(await connection.request("/hls/seg1.ts").status == 200)
                throw Planned()
            }
        }
        let connection = try #require(kept)
        defer { connection.close() }
        let rest = await connection.readToEnd(idleTimeout: .seconds(30))
        #expect(rest.outcome == .closed || rest.outcome == .reset)
        await directory.remove()
    }

    @Test(.timeLimit(.minutes(1)))
    func stopClosesStalledConnectionsPromptly() async throws {
        let directory = try await ServedDirectory.make()
        let server = try await CDNServer.start(CDNServerConfiguration(root: directory.root))
        server.injectFault(.stall(afterBytes: 2_000), path: "/video.mp4")
        let connection = try await RawConnection.open(port: server.port)
        defer { connection.close() }
        let partial = await connection.request("/video.mp4", stopAfterBodyBytes: 2_000)
        #expect(partial.outcome == .stoppedEarly)
        await server.stop()
        // The stalled connection was closed by the server, not left for the client to time out.
        let rest = await connection.readToEnd(idleTimeout: .seconds(30))
        #expect(rest.outcome == .closed || rest.outcome == .reset)
        await server.stop()
        await directory.remove()
    }

    @Test func portInUseIsAClearError() async throws {
        try await withTestServer { server, directory throws in
            let error = await #expect(throws: CDNServerError.self) {
                try await CDNServer.start(CDNServerConfiguration(root: directory.root, port: server.port))
            }
            #expect(error?.code == .bindFailed)
            #expect(error?.description.contains("\(server.port)") == true)
        }
    }

    @Test func missingOrNonDirectoryRootIsAClearError() async throws {
        let missing = await #expect(throws: CDNServerError.self) {
            try await CDNServer.start(CDNServerConfiguration(rootPath: "/nonexistent/reel-cdn-root"))
        }
        #expect(missing?.code == .invalidRoot)
        #expect(missing?.description.contains("/nonexistent/reel-cdn-root") == true)
        let directory = try await ServedDirectory.make()
        let file = await #expect(throws: CDNServerError.self) {
            try await CDNServer.start(CDNServerConfiguration(root: directory.root.appendingPathComponent("video.mp4")))
        }
        #expect(file?.code == .invalidRoot)
        await directory.remove()
    }

    @Test func badRatesAreRefusedAtStart() async throws {
        let directory = try await ServedDirectory.make()
        let error = await #expect(throws: CDNServerError.self) {
            try await CDNServer.start(CDNServerConfiguration(root: directory.root, faults: FaultInjection(failRate: 1.5)))
        }
        #expect(error?.code == .invalidConfiguration)
        await directory.remove()
    }
}
