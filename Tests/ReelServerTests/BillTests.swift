import Foundation
import ReelCore
import ReelServer
import Testing

@Suite("The CDN bill")
struct BillTests {
    @Test func bytesEqualWhatClientsReceived() async throws {
        try await withTestServer { server, _ throws in
            var received = 0
            for (target, headers) in [
                ("/video.mp4", [:]), ("/video.mp4", ["Range": "bytes=100-199"]), ("/hls/seg1.ts", ["Range": "bytes=-1000"]),
                ("/hls/seg2.ts", [:]), ("/nope.ts", [:]), ("/video.mp4", ["Range": "bytes=999999-"]),
            ] as [(String, [String: String])] {
                let response = try await fetch(server, target, headers: headers)
                #expect(response.outcome == .complete)
                received += response.body.count
            }
            _ = try await fetch(server, "/video.mp4", method: "HEAD")
            let bill = server.bill()
            #expect(received == 200_000 + 100 + 1_000 + 50_000)
            #expect(bill.bodyBytes == received)
            #expect(bill.paths["/video.mp4"]?.bodyBytes == 200_100)
            #expect(bill.paths["/hls/seg1.ts"]?.bodyBytes == 1_000)
            #expect(bill.requests == 7)
            #expect(bill.responses(status: 200) == 3)
            #expect(bill.responses(status: 206) == 2)
            #expect(bill.responses(status: 404) == 1)
            #expect(bill.responses(status: 416) == 1)
            #expect(bill.paths["/video.mp4"]?.responses(status: 416) == 1)
        }
    }

    /// The client reads part of the body, half-closes, and drains what is still coming: the server
    /// stops at the next chunk, and every byte billed is a byte the client got.
    @Test("a client that closes early is billed what it received", arguments: [nil, 2_000, 8_000] as [Int?])
    func earlyClose(bandwidthKbps: Int?) async throws {
        let profile = NetworkProfile(bandwidthKbps: bandwidthKbps)
        try await withTestServer(profile: profile) { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            // Half-closed on the reading thread as soon as the 50,000 bytes are in: a busy
            // cooperative pool between the read and the half-close must not let the body finish.
            let partial = await connection.request("/big.bin", stopAfterBodyBytes: 50_000, thenShutdownWrite: true)
            #expect(partial.outcome == .stoppedEarly)
            let rest = await connection.readToEnd()
            #expect(rest.outcome == .closed)
            let received = partial.body.count + rest.bytes.count
            let bill = server.bill()
            if bandwidthKbps != nil {
                // Throttled, the whole file takes 1.5 s or more: the client half-closed long before.
                #expect(received < 1_500_000)
            }
            #expect(bill.bodyBytes == received)
            #expect(bill.paths["/big.bin"]?.bodyBytes == received)
            #expect(Array(ServedDirectory.bytes(of: "big.bin")[..<received]) == partial.body + rest.bytes)
        }
    }

    /// A client that aborts (closes with bytes unread, so its kernel resets the connection): the
    /// request ends as aborted, the bill never exceeds the file, and the server carries on.
    @Test func abortingClient() async throws {
        let recorder = RequestRecorder()
        try await withTestServer(recorder: recorder) { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            let partial = await connection.request("/big.bin", stopAfterBodyBytes: 10_000)
            #expect(partial.outcome == .stoppedEarly)
            connection.close()
            let entries = await recorder.waitForEntries(1)
            #expect(entries[0].path == "/big.bin")
            #expect(entries[0].outcome == .aborted || entries[0].outcome == .complete)
            #expect(server.bill().bodyBytes <= 1_500_000)
            #expect(server.bill().bodyBytes == entries[0].bodyBytes)
            #expect(try await fetch(server, "/hls/seg1.ts").body.count == 50_000)
        }
    }

    @Test func peakConcurrentConnections() async throws {
        try await withTestServer { server, _ throws in
            let clients = 6
            let connections = try await withThrowingTaskGroup(of: RawConnection.self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        let connection = try await RawConnection.open(port: server.port)
                        let response = await connection.request("/hls/seg1.ts")
                        #expect(response.outcome == .complete)
                        return connection
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Every connection is still open and each has been answered: all were open at once.
            let bill = server.bill()
            #expect(bill.connections == clients)
            #expect(bill.peakConcurrentConnections == clients)
            #expect(bill.openConnections == clients)
            #expect(bill.paths["/hls/seg1.ts"]?.requests == clients)
            connections.forEach { $0.close() }
        }
    }

    @Test func peakConcurrentRequestsPerPath() async throws {
        try await withTestServer { server, _ throws in
            server.injectFault(.stall(afterBytes: 100), path: "/hls/seg2.ts", count: 3)
            let connections = try await withThrowingTaskGroup(of: RawConnection.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        let connection = try await RawConnection.open(port: server.port)
                        let response = await connection.request("/hls/seg2.ts", stopAfterBodyBytes: 100)
                        #expect(response.outcome == .stoppedEarly)
                        return connection
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            _ = try await fetch(server, "/hls/seg1.ts")
            let bill = server.bill()
            #expect(bill.paths["/hls/seg2.ts"]?.peakConcurrentRequests == 3)
            #expect(bill.paths["/hls/seg2.ts"]?.inFlightRequests == 3)
            #expect(bill.paths["/hls/seg1.ts"]?.peakConcurrentRequests == 1)
            #expect(bill.faults.stall == 3)
            connections.forEach { $0.close() }
        }
    }

    @Test func jsonRoundTripsAndResetStartsOver() async throws {
        let recorder = RequestRecorder()
        try await withTestServer(recorder: recorder) { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            _ = await connection.request("/hls/seg1.ts")
            _ = await connection.request("/nope")
            // The client can hold a whole response before the server has finished the request (a
            // 404's head is all of it): wait until the server logs both, so neither is in flight.
            _ = await recorder.waitForEntries(2)
            let bill = server.bill()
            let decoded = try JSONDecoder().decode(CDNBill.self, from: try bill.jsonData())
            #expect(decoded == bill)
            let json = try bill.jsonString()
            #expect(json.contains("\"bodyBytes\": 50000"))
            #expect(json.contains("\"/hls/seg1.ts\""))
            #expect(bill.table().contains("/hls/seg1.ts"))

            server.resetBill()
            let fresh = server.bill()
            #expect(fresh.requests == 0)
            #expect(fresh.bodyBytes == 0)
            #expect(fresh.paths.isEmpty)
            #expect(fresh.openConnections == 1)
            #expect(fresh.peakConcurrentConnections == 1)
            _ = await connection.request("/hls/seg2.ts", headers: ["Range": "bytes=0-9"])
            #expect(server.bill().bodyBytes == 10)
        }
    }

    @Test func writesTheBillToAFile() async throws {
        try await withTestServer { server, directory throws in
            _ = try await fetch(server, "/hls/seg3.ts")
            let path = directory.parent.appendingPathComponent("bill.json").path
            try await server.bill().writeJSON(toFile: path)
            let data = try await BlockingPool.shared.run { try Data(contentsOf: URL(fileURLWithPath: path)) }
            #expect(try JSONDecoder().decode(CDNBill.self, from: data).bodyBytes == 50_000)
        }
    }

    @Test func requestLogSeesEveryRequest() async throws {
        let recorder = RequestRecorder()
        try await withTestServer(recorder: recorder) { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            _ = await connection.request("/hls/seg1.ts?x=1", headers: ["Range": "bytes=0-99"])
            _ = await connection.request("/missing.ts")
            _ = await connection.request("/video.mp4", method: "HEAD")
            let entries = await recorder.waitForEntries(3)
            #expect(entries == [
                RequestLogEntry(connectionID: entries[0].connectionID, method: "GET", path: "/hls/seg1.ts", range: "bytes=0-99",
                                status: 206, bodyBytes: 100, fault: nil, outcome: .complete),
                RequestLogEntry(connectionID: entries[0].connectionID, method: "GET", path: "/missing.ts", range: nil,
                                status: 404, bodyBytes: 0, fault: nil, outcome: .complete),
                RequestLogEntry(connectionID: entries[0].connectionID, method: "HEAD", path: "/video.mp4", range: nil,
                                status: 200, bodyBytes: 0, fault: nil, outcome: .complete),
            ])
        }
    }
}
