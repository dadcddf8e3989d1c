@testable import ReelMedia
import Testing

/// The pool's placement policy, driven directly: reuse, creation, reconfiguration, eviction,
/// preemption and waiting, in that order.
@Suite("Decoder pool policy")
struct DecoderPoolPolicyTests {
    let annexB = StreamFormat(codec: "h264", mediaType: .video, width: 540, height: 960, extradataDigest: 0)
    let annexBLandscape = StreamFormat(codec: "h264", mediaType: .video, width: 960, height: 540, extradataDigest: 0)
    let avcC = StreamFormat(codec: "h264", mediaType: .video, width: 540, height: 960, extradataDigest: 42)
    let hevc = StreamFormat(codec: "hevc", mediaType: .video, width: 540, height: 960, extradataDigest: 7)
    let policy = DecoderPoolPolicy(capacity: 2)

    func idle(_ id: Int, _ format: StreamFormat, used: UInt64) -> DecoderPoolPolicy.Candidate {
        .init(id: id, format: format, state: .idle, lastUsed: used)
    }

    func held(_ id: Int, _ format: StreamFormat, _ priority: DecoderPriority, used: UInt64) -> DecoderPoolPolicy.Candidate {
        .init(id: id, format: format, state: .held(priority), lastUsed: used)
    }

    @Test func anIdleDecoderOfTheSameBitstreamFormatIsReusedWhateverThePictureSize() {
        #expect(policy.place(annexBLandscape, priority: .mounted, among: [idle(1, avcC, used: 9), idle(2, annexB, used: 1)]) == .reuse(2))
    }

    @Test func amongMatchesTheMostRecentlyUsedIsReused() {
        #expect(policy.place(annexB, priority: .mounted, among: [idle(1, annexB, used: 1), idle(2, annexB, used: 5)]) == .reuse(2))
    }

    @Test func aPoolBelowCapacityCreatesRatherThanReconfigures() {
        #expect(policy.place(avcC, priority: .mounted, among: [idle(1, annexB, used: 1)]) == .create)
        #expect(policy.place(avcC, priority: .playing, among: []) == .create)
    }

    @Test func aFullPoolReconfiguresAnIdleDecoderOfTheSameCodecKeepingOneOfEachFormat() {
        let three = DecoderPoolPolicy(capacity: 3)
        let decoders = [idle(1, annexB, used: 1), idle(2, avcC, used: 2), idle(3, annexB, used: 3)]
        // Decoder 1 is the oldest of the two Annex B ones; the lone avcC one stays.
        let other = StreamFormat(codec: "h264", mediaType: .video, width: 720, height: 720, extradataDigest: 99)
        #expect(three.place(other, priority: .mounted, among: decoders) == .reconfigure(1))
        // With one of each format, the least recently used goes.
        #expect(policy.place(other, priority: .mounted, among: [idle(1, annexB, used: 4), idle(2, avcC, used: 2)]) == .reconfigure(2))
    }

    @Test func anIdleDecoderOfAnotherCodecIsEvicted() {
        #expect(policy.place(hevc, priority: .mounted, among: [idle(1, annexB, used: 3), idle(2, avcC, used: 2)]) == .evict(2))
    }

    @Test func aPlayingRequestPreemptsTheLowestPriorityHolder() {
        let decoders = [held(1, annexB, .paused, used: 1), held(2, annexB, .mounted, used: 9)]
        #expect(policy.place(annexB, priority: .playing, among: decoders) == .preempt(2))
    }

    @Test func amongEqualPrioritiesAHolderOfTheSameFormatThenTheLeastRecentlyUsedIsPreempted() {
        let sameFormat = [held(1, avcC, .paused, used: 1), held(2, annexB, .paused, used: 9)]
        #expect(policy.place(annexB, priority: .playing, among: sameFormat) == .preempt(2))
        let oldest = [held(1, annexB, .paused, used: 5), held(2, annexB, .paused, used: 3)]
        #expect(policy.place(annexB, priority: .playing, among: oldest) == .preempt(2))
    }

    @Test func aPlayerIsNeverPreemptedAndAMountNeverPreempts() {
        let playing = [held(1, annexB, .playing, used: 1), held(2, annexB, .playing, used: 2)]
        for priority in DecoderPriority.allCases {
            #expect(policy.place(annexB, priority: priority, among: playing) == .wait)
        }
        let resting = [held(1, annexB, .mounted, used: 1), held(2, annexB, .paused, used: 2)]
        #expect(policy.place(annexB, priority: .mounted, among: resting) == .wait)
        #expect(policy.place(annexB, priority: .paused, among: resting) == .preempt(1))
    }

    @Test func decodersBeingHandedOverAreNeitherFreeNorPreemptable() {
        let busy = [DecoderPoolPolicy.Candidate(id: 1, format: annexB, state: .busy, lastUsed: 1),
                    held(2, annexB, .playing, used: 2)]
        #expect(policy.place(annexB, priority: .playing, among: busy) == .wait)
    }

    @Test func preemptionRuleReadsAsDocumented() {
        #expect(DecoderPriority.playing.mayPreempt(.paused))
        #expect(DecoderPriority.playing.mayPreempt(.mounted))
        #expect(DecoderPriority.paused.mayPreempt(.mounted))
        #expect(!DecoderPriority.playing.mayPreempt(.playing))
        #expect(!DecoderPriority.mounted.mayPreempt(.mounted))
        #expect(!DecoderPriority.mounted.mayPreempt(.paused))
    }
}
