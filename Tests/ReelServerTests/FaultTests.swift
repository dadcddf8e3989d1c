import Foundation
import ReelCore
import ReelServer
import Testing

@Suite("Fault injection: seeded and targeted")
struct FaultTests {
    /// What a client saw of one response.
    enum Seen: Equatable, Sendable {
        case ok
        case status(Int)
        case reset(afterBytes: Int)
        case stall(afterBytes: Int)
        case other(String)
    }

    /// One request on a fresh connection, read with a generous idle timeout. When a stall after
    /// `stallAt` bytes is expected, those bytes are read first, then a 300 ms idle timeout detects
    /// the stall: a correct server never sends more, so a slow machine cannot make this flaky.
    private static func see(_ server: CDNServer, _ target: String, stallAt: Int? = nil) async throws -> Seen {
        let port = server.port
        return try await BlockingPool.shared.run { try seeBlocking(port: port, target, stallAt: stallAt) }
    }

    /// `see` on the calling thread, so a test can run a whole sequence of requests on one thread.
    @available(*, noasync, message: "blocks: await see(_:_:stallAt:) instead")
    private static func seeBlocking(port: Int, _ target: String, stallAt: Int? = nil) throws -> Seen {
        let connection = try RawConnection.openBlocking(port: port)
        defer { connection.close() }
        let response = connection.requestBlocking(target, stopAfterBodyBytes: stallAt)
        switch (response.status, response.outcome) {
        case (200?, .complete): return .ok
        case (let status?, .complete): return .status(status)
        case (200?, .reset): return .reset(afterBytes: response.body.count)
        case (200?, .timedOut): return .stall(afterBytes: response.body.count)
        case (200?, .stoppedEarly):
            let rest = connection.readToEndBlocking(idleTimeout: .milliseconds(300))
            guard rest.outcome == .timedOut, rest.bytes.isEmpty else {
                return .other("\(rest.bytes.count) more bytes after \(response.body.count), then \(rest.outcome)")
            }
            return .stall(afterBytes: response.body.count)
        default: return .other("\(String(describing: response.status)) \(response.outcome)")
        }
    }

    /// The plan for a request of a 50,000-byte segment.
    private static func planned(_ path: String, _ index: Int, _ rates: FaultInjection) -> Fault? {
        rates.fault(forPath: path, requestIndex: index, bodyLength: 50_000)
    }

    private static let paths = ["/hls/seg1.ts", "/hls/seg2.ts", "/hls/seg3.ts"]
    private static let rates = FaultInjection(failRate: 0.25, resetRate: 0.25, stallRate: 0.25, seed: 2024)

    /// Eight requests per path, the paths running concurrently, each path's requests in order on
    /// a thread of its own (one wait for the cooperative pool per path, not one per request: on
    /// a busy machine each such wait can take seconds, and this test has a time limit).
    private static func run(seed: UInt64) async throws -> [String: [Seen]] {
        let rates = FaultInjection(failRate: rates.failRate, resetRate: rates.resetRate, stallRate: rates.stallRate, seed: seed)
        return try await withTestServer(faults: rates) { server, _ throws in
            let port = server.port
            return try await withThrowingTaskGroup(of: (String, [Seen]).self) { group in
                for path in paths {
                    group.addTask {
                        let seen = try await BlockingPool.shared.run { () throws -> [Seen] in
                            try (0..<8).map { index in
                                var stallAt: Int?
                                if case .stall(let after)? = planned(path, index, rates) { stallAt = after }
                                return try seeBlocking(port: port, path, stallAt: stallAt)
                            }
                        }
                        return (path, seen)
                    }
                }
                let seen = try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
                // Every byte billed reached the client, whatever fault cut the body.
                let received = seen.values.joined().reduce(0) { total, seen in
                    switch seen {
                    case .ok: total + 50_000
                    case .reset(let bytes), .stall(let bytes): total + bytes
                    case .status, .other: total
                    }
                }
                #expect(server.bill().bodyBytes == received)
                return seen
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func seededFaultsAreReproducibleAndVisible() async throws {
        let first = try await Self.run(seed: 2024)
        let second = try await Self.run(seed: 2024)
        #expect(first == second)
        // What the client saw is what the seeded plan says, request by request.
        for path in Self.paths {
            let planned: [Seen] = (0..<8).map { index in
                switch Self.planned(path, index, Self.rates) {
                case nil: .ok
                case .status(let status)?: .status(status)
                case .reset(let after)?: .reset(afterBytes: after)
                case .stall(let after)?: .stall(afterBytes: after)
                }
            }
            #expect(first[path] == planned, "\(path)")
        }
        // The seed gives a mix: every kind of fault shows up in 24 requests.
        let all = first.values.flatMap { $0 }
        #expect(all.contains(.status(503)))
        #expect(all.contains { if case .reset = $0 { true } else { false } })
        #expect(all.contains { if case .stall = $0 { true } else { false } })
        #expect(all.contains(.ok))
    }

    @Test func seededFaultsAreCountedInTheBill() async throws {
        let recorder = RequestRecorder()
        try await withTestServer(faults: FaultInjection(failRate: 1, seed: 1), recorder: recorder) { server, _ throws in
            #expect(try await Self.see(server, "/hls/seg1.ts") == .status(503))
            #expect(try await Self.see(server, "/missing.ts") == .status(503))
            let bill = server.bill()
            #expect(bill.faults.status == 2)
            #expect(bill.responses(status: 503) == 2)
            #expect(bill.bodyBytes == 0)
            let entries = await recorder.waitForEntries(2)
            #expect(entries.allSatisfy { $0.fault == .status(503) })

            try server.setFaultInjection(.none)
            #expect(try await Self.see(server, "/hls/seg1.ts") == .ok)
            #expect(throws: CDNServerError.self) { try server.setFaultInjection(FaultInjection(resetRate: 2)) }
        }
    }

    @Test func targetedReset() async throws {
        let recorder = RequestRecorder()
        try await withTestServer(recorder: recorder) { server, _ throws in
            server.injectFault(.reset(afterBytes: 1_000), path: "hls/seg1.ts")
            let response = try await fetch(server, "/hls/seg1.ts")
            #expect(response.status == 200)
            #expect(response.outcome == .reset)
            #expect(response.body == Array(ServedDirectory.bytes(of: "hls/seg1.ts")[..<1_000]))
            // Only the next request was hit.
            #expect(try await Self.see(server, "/hls/seg1.ts") == .ok)
            let entries = await recorder.waitForEntries(2)
            let reset = try #require(entries.first { $0.outcome == .reset })
            #expect(reset.bodyBytes == 1_000)
            #expect(reset.fault == .reset(afterBytes: 1_000))
            #expect(server.bill().faults.reset == 1)
            #expect(server.bill().paths["/hls/seg1.ts"]?.bodyBytes == 51_000)
        }
    }

    @Test func targetedResetInsideARange() async throws {
        try await withTestServer { server, _ throws in
            server.injectFault(.reset(afterBytes: 10), path: "/video.mp4")
            let response = try await fetch(server, "/video.mp4", headers: ["Range": "bytes=500-599"])
            #expect(response.status == 206)
            #expect(response.outcome == .reset)
            #expect(response.body == Array(ServedDirectory.bytes(of: "video.mp4")[500..<510]))
        }
    }

    @Test func targetedStallIsSeenByAClientTimeout() async throws {
        let recorder = RequestRecorder()
        try await withTestServer(recorder: recorder) { server, _ throws in
            server.injectFault(.stall(afterBytes: 500), path: "/hls/seg3.ts")
            let connection = try await RawConnection.open(port: server.port)
            let response = await connection.request("/hls/seg3.ts", stopAfterBodyBytes: 500)
            #expect(response.status == 200)
            #expect(response.body == Array(ServedDirectory.bytes(of: "hls/seg3.ts")[..<500]))
            // Nothing more comes: the client's own timeout is how it finds out.
            let rest = await connection.readToEnd(idleTimeout: .milliseconds(300))
            #expect(rest.outcome == .timedOut)
            #expect(rest.bytes.isEmpty)
            connection.close()
            // The client gave up and closed: the server logs the stalled request.
            let entries = await recorder.waitForEntries(1)
            #expect(entries[0].outcome == .stalled)
            #expect(entries[0].bodyBytes == 500)
            #expect(server.bill().faults.stall == 1)
        }
    }

    @Test("targeted statuses for the next k requests", arguments: [404, 500, 503])
    func targetedStatus(status: Int) async throws {
        try await withTestServer { server, _ throws in
            server.injectFault(.status(status), path: "/hls/seg2.ts", count: 2)
            #expect(server.pendingInjectedFaults["/hls/seg2.ts"]?.count == 2)
            #expect(try await Self.see(server, "/hls/seg2.ts") == .status(status))
            #expect(try await Self.see(server, "/hls/seg1.ts") == .ok)
            #expect(try await Self.see(server, "/hls/seg2.ts?retry=1") == .status(status))
            #expect(try await Self.see(server, "/hls/seg2.ts") == .ok)
            #expect(server.pendingInjectedFaults.isEmpty)
            let bill = server.bill()
            #expect(bill.faults.status == 2)
            #expect(bill.paths["/hls/seg2.ts"]?.responses(status: status) == 2)
            #expect(bill.paths["/hls/seg2.ts"]?.faults.status == 2)
        }
    }

    @Test func injectedFaultsQueueInOrderAndCanBeCleared() async throws {
        try await withTestServer { server, _ throws in
            server.injectFault(.status(500), path: "/video.mp4")
            server.injectFault(.reset(afterBytes: 5), path: "/video.mp4")
            #expect(try await Self.see(server, "/video.mp4") == .status(500))
            #expect(try await Self.see(server, "/video.mp4") == .reset(afterBytes: 5))
            server.injectFault(.status(503), path: "/video.mp4", count: 5)
            server.clearInjectedFaults()
            #expect(try await Self.see(server, "/video.mp4") == .ok)
        }
    }
}
