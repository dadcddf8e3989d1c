import Foundation
import ReelServer
import Testing

@Suite("Network profiles: latency, bandwidth, offline")
struct NetworkProfileTests {
    @Test func builtInProfiles() {
        #expect(NetworkProfile.named("wifi") == .wifi)
        #expect(NetworkProfile.named("4G") == .fourG)
        #expect(NetworkProfile.named("3g")?.latencyMilliseconds == 200)
        #expect(NetworkProfile.named("3g")?.bandwidthKbps == 1_500)
        #expect(NetworkProfile.named("offline")?.isOffline == true)
        #expect(NetworkProfile.named("5g") == nil)
    }

    @Test func latencyDelaysTheFirstByteOfEveryResponse() async throws {
        try await withTestServer(profile: NetworkProfile(latencyMilliseconds: 80)) { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            for _ in 0..<2 {
                let response = await connection.request("/hls/seg1.ts", headers: ["Range": "bytes=0-0"])
                #expect(response.status == 206)
                let firstByte = try #require(response.timeToFirstByte)
                #expect(firstByte >= .milliseconds(80))
            }
        }
    }

    @Test func bandwidthLimitPacesTheBody() async throws {
        // 50,000 bytes at 2,000 kbps: at least 50,000 * 8 / 2,000 = 200 ms.
        try await withTestServer(profile: NetworkProfile(bandwidthKbps: 2_000)) { server, _ throws in
            let clock = ContinuousClock()
            let start = clock.now
            let response = try await fetch(server, "/hls/seg1.ts")
            let elapsed = clock.now - start
            #expect(response.body.count == 50_000)
            #expect(elapsed >= .milliseconds(200))

            // A range of 25,000 bytes: at least 100 ms.
            let rangeStart = clock.now
            let range = try await fetch(server, "/video.mp4", headers: ["Range": "bytes=1000-25999"])
            #expect(range.body.count == 25_000)
            #expect(clock.now - rangeStart >= .milliseconds(100))
        }
    }

    @Test func bandwidthCanChangeWhileRunning() async throws {
        try await withTestServer { server, _ throws in
            server.setProfile(NetworkProfile(name: "slow", bandwidthKbps: 4_000))
            #expect(server.profile.name == "slow")
            let clock = ContinuousClock()
            let start = clock.now
            let response = try await fetch(server, "/hls/seg2.ts")
            #expect(response.body.count == 50_000)
            #expect(clock.now - start >= .milliseconds(100))
        }
    }

    @Test func offlineClosesWithoutAnswering() async throws {
        try await withTestServer(profile: .offline) { server, _ throws in
            let response = try await fetch(server, "/hls/seg1.ts")
            #expect(response.status == nil)
            #expect(response.outcome == .closed || response.outcome == .reset)
            #expect(server.bill().connections == 0)
            #expect(server.bill().requests == 0)
        }
    }

    @Test func switchingOfflineMidRunClosesEverything() async throws {
        try await withTestServer { server, _ throws in
            let idle = try await RawConnection.open(port: server.port)
            defer { idle.close() }
            #expect(await idle.request("/hls/seg1.ts").outcome == .complete)
            server.injectFault(.stall(afterBytes: 1_000), path: "/hls/seg2.ts")
            let busy = try await RawConnection.open(port: server.port)
            defer { busy.close() }
            #expect(await busy.request("/hls/seg2.ts", stopAfterBodyBytes: 1_000).outcome == .stoppedEarly)

            server.setProfile(.offline)
            let idleEnd = await idle.readToEnd()
            #expect(idleEnd.bytes.isEmpty)
            #expect(idleEnd.outcome == .closed || idleEnd.outcome == .reset)
            let busyEnd = await busy.readToEnd()
            #expect(busyEnd.outcome == .closed || busyEnd.outcome == .reset)
            let refused = try await fetch(server, "/hls/seg3.ts")
            #expect(refused.status == nil)

            server.setProfile(.unlimited)
            let back = try await fetch(server, "/hls/seg3.ts")
            #expect(back.status == 200)
            #expect(back.body.count == 50_000)
        }
    }
}
