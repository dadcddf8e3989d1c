@testable import ReelServer
import Testing

@Suite("Token bucket pacing, on a manual clock")
struct TokenBucketTests {
    /// Sends `chunks` back to back, each when the bucket allows, and returns when the last one left.
    private func finishTime(_ bucket: inout TokenBucket, chunks: [Int], rate: Double, start: UInt64 = 1_000) -> UInt64 {
        var now = start
        for chunk in chunks {
            now += bucket.take(chunk, bytesPerSecond: rate, now: now)
        }
        return now - start
    }

    @Test func bodyNeverArrivesFasterThanTheRate() {
        var bucket = TokenBucket(capacity: 0)
        // 100,000 bytes at 10,000 bytes/s: at least 10 s.
        let elapsed = finishTime(&bucket, chunks: Array(repeating: 1_000, count: 100), rate: 10_000)
        #expect(elapsed >= 10_000_000_000)
        #expect(elapsed <= 10_000_000_000 + 100)
    }

    @Test func idleTimeIsNotSavedUpWithoutCapacity() {
        var bucket = TokenBucket(capacity: 0)
        _ = bucket.take(1_000, bytesPerSecond: 1_000, now: 0)
        // One hour idle, then 1,000 bytes still take a second.
        #expect(bucket.take(1_000, bytesPerSecond: 1_000, now: 3_600_000_000_000) == 1_000_000_000)
    }

    @Test func capacityAllowsABurstAfterIdle() {
        var bucket = TokenBucket(capacity: 500)
        _ = bucket.take(1, bytesPerSecond: 1_000, now: 0)
        #expect(bucket.take(500, bytesPerSecond: 1_000, now: 10_000_000_000) == 0)
        #expect(bucket.take(500, bytesPerSecond: 1_000, now: 10_000_000_000) == 500_000_000)
    }

    @Test func rateChangesApplyToTheNextChunk() {
        var bucket = TokenBucket(capacity: 0)
        #expect(bucket.take(1_000, bytesPerSecond: 1_000, now: 0) == 1_000_000_000)
        #expect(bucket.take(1_000, bytesPerSecond: 10_000, now: 1_000_000_000) == 100_000_000)
    }
}
