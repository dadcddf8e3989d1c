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

    /// With `fastResume`, media arriving clearly faster than it plays lets a player go on with
    /// less than the rebuffer mark; arriving slower, it waits for the whole mark.
    @Test func aPlayerThatRanDryGoesOnSoonerWhileMediaArrivesFast() {
        var fast = policy
        fast.fastResume = .milliseconds(250)
        fast.fastResumeRate = 1.25
        // 300 ms of media in 200 ms of stall: 1.5 times as fast as it plays.
        #expect(fast.mayResumeAfterStall(buffered: .milliseconds(300), packets: 9, ended: false,
                                         stalled: .milliseconds(200), gained: .milliseconds(300)))
        #expect(!policy.mayResumeAfterStall(buffered: .milliseconds(300), packets: 9, ended: false,
                                            stalled: .milliseconds(200), gained: .milliseconds(300)), "off without fastResume")
        // Not yet the fast mark, however fast it comes.
        #expect(!fast.mayResumeAfterStall(buffered: .milliseconds(200), packets: 6, ended: false,
                                          stalled: .milliseconds(50), gained: .milliseconds(200)))
        // 300 ms in 300 ms: no faster than it plays, so the whole mark.
        #expect(!fast.mayResumeAfterStall(buffered: .milliseconds(300), packets: 9, ended: false,
                                          stalled: .milliseconds(300), gained: .milliseconds(300)))
        // What was there when it ran dry is not counted as arriving.
        #expect(!fast.mayResumeAfterStall(buffered: .milliseconds(400), packets: 12, ended: false,
                                          stalled: .milliseconds(200), gained: .milliseconds(200)))
        #expect(fast.mayResumeAfterStall(buffered: .milliseconds(500), packets: 15, ended: false,
                                         stalled: .seconds(10), gained: .milliseconds(100)), "the rebuffer mark as before")
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
        #expect(policy.fastResume == .milliseconds(500) && policy.fastResumeRate == 1.5)
        config.playback.fastResumeMs = 250
        config.playback.fastResumeRate = 3
        #expect(BufferPolicy(config.playback).fastResume == .milliseconds(250))
        #expect(BufferPolicy(config.playback).fastResumeRate == 3)
        config.playback.fastResumeMs = 0
        #expect(BufferPolicy(config.playback).fastResume == nil, "0 turns it off")
        #expect(policy.maxPackets == config.playback.maxBufferPackets)
    }
}
