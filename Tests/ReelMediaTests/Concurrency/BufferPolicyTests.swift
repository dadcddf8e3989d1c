import ReelCore
import ReelMedia
import Testing

@Suite("Buffer policy: the demuxer's watermarks")
struct BufferPolicyTests {
    let policy = BufferPolicy(maxBuffer: .seconds(3), minBuffer: .seconds(1), rebuffer: .milliseconds(500), maxPackets: 100)

    @Test func readingGoesOnToTheHighWatermarkThenRestsUntilTheLowOne() {
        #expect(policy.shouldRead(buffered: .seconds(2), packets: 10, wasReading: true))
        #expect(!policy.shouldRead(buffered: .seconds(3), packets: 10, wasReading: true))
        // Resting: 2 s is between the watermarks, so it keeps resting.
        #expect(!policy.shouldRead(buffered: .seconds(2), packets: 10, wasReading: false))
        #expect(policy.shouldRead(buffered: .milliseconds(999), packets: 10, wasReading: false))
    }

    @Test func thePacketBoundHoldsWhateverTheTimestampsSay() {
        #expect(!policy.shouldRead(buffered: .zero, packets: 100, wasReading: true))
    }

    @Test func aPlayerThatRanDryGoesOnAtTheRebufferMarkOrTheEnd() {
        #expect(!policy.mayResumeAfterStall(buffered: .milliseconds(400), packets: 5, ended: false))
        #expect(policy.mayResumeAfterStall(buffered: .milliseconds(500), packets: 5, ended: false))
        #expect(policy.mayResumeAfterStall(buffered: .zero, packets: 0, ended: true))
    }

    @Test func theConfigurationDescribesIt() {
        var config = ReelConfig()
        config.playback.maxBufferMs = 4000
        config.playback.minBufferMs = 9000
        config.playback.bufferWatermarkMs = 700
        let policy = BufferPolicy(config.playback)
        #expect(policy.maxBuffer == .seconds(4))
        #expect(policy.minBuffer == .seconds(4), "the low watermark never exceeds the high one")
        #expect(policy.rebuffer == .milliseconds(700))
        #expect(policy.maxPackets == config.playback.maxBufferPackets)
    }
}
