import Foundation
import ReelCore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Testing

/// `readReady` through the disk cache: what has arrived of a transfer still on its way, without
/// waiting for more, for the reader that pulls it from the network and for one that follows it.
@Suite("Reading what has arrived")
struct ReadReadyTests {
    static let size = 100_000
    static let sent = 40_000

    @Test("a transfer the server holds gives what came, then 0 without waiting, to its puller and its follower")
    func whatCameThenNothing() async throws {
        try await CacheHarness.with(["seg.ts": CacheHarness.bytes(Self.size)]) { harness in
            harness.server.injectFault(.stall(afterBytes: Self.sent), path: "/seg.ts")
            let cache = try await harness.openCache()
            let factory = harness.factory(cache)
            let spec = DataSpec(url: harness.url("seg.ts"), kind: .segment)
            let cancellation = Cancellation()
            // Only a bound on a failure: a read that waited would wait until the server stops.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                cancellation.cancel()
            }
            defer { watchdog.cancel() }
            let (first, second) = try await BlockingPool.shared.run {
                let puller = factory.makeDataSource(cancellation: cancellation)
                let follower = factory.makeDataSource(cancellation: cancellation)
                defer {
                    puller.close()
                    follower.close()
                }
                _ = try puller.open(spec)
                _ = try follower.open(spec)
                return (try Self.readAll(puller), try Self.readAll(follower))
            }
            #expect(first == Self.sent)
            #expect(second == Self.sent)
            #expect(!cancellation.isCancelled, "a read waited for bytes the server held")
        }
    }

    /// Reads until the bytes the server sent are in (waiting), then asks for more without waiting:
    /// the bytes read, once `readReady` answered 0.
    static func readAll(_ source: any DataSource) throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var total = 0
        while total < sent {
            let want = min(buffer.count, sent - total)
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
            guard count > 0 else { return total }
            total += count
        }
        let ready = try buffer.withUnsafeMutableBytes { try source.readReady(into: UnsafeMutableRawBufferPointer(rebasing: $0[...])) }
        #expect(ready == 0)
        return total
    }
}
