import ReelCore
import ReelManifest
import ReelNet
import Testing

/// The adaptive rule on a manual clock: the start variant from the estimate, up-switches that
/// wait for a sustained estimate and a buffer, down-switches on a short buffer or a stall, and
/// the picture box and excluded variants respected.
@Suite("ABR policy")
struct ABRPolicyTests {
    /// 360p at 400 kbps, 540p at 900 kbps, 720p at 1,600 kbps.
    static let ladder = [ABRRung(bandwidth: 400_000, resolution: Resolution(width: 360, height: 640)),
                         ABRRung(bandwidth: 900_000, resolution: Resolution(width: 540, height: 960)),
                         ABRRung(bandwidth: 1_600_000, resolution: Resolution(width: 720, height: 1280))]
    static let parameters = ABRParameters(safetyFactor: 0.75, minBufferForUp: .milliseconds(1500), upHold: .seconds(2),
                                          lowBuffer: .seconds(1))

    static func policy(start: Int, constraints: PlaybackConstraints = PlaybackConstraints()) -> ABRPolicy {
        ABRPolicy(ladder: ladder, constraints: constraints, parameters: parameters, start: start)
    }

    static func input(_ segment: Int, buffered: Double?, estimate: Int, last: Int? = nil, stalls: Int = 0,
                      sharers: Int = 1, clock: ManualClock) -> ABRInput {
        ABRInput(segment: segment, segmentDuration: .seconds(2), buffered: buffered.map { .seconds($0) }, stalls: stalls,
                 estimate: estimate, lastThroughput: last, sharers: sharers, now: clock.now.offset)
    }

    @Test func theStartVariantIsWhatTheEstimateAffords() {
        func start(_ kbps: Int) -> Int? {
            ABRPolicy.startIndex(ladder: Self.ladder, constraints: PlaybackConstraints(), parameters: Self.parameters,
                                 estimate: kbps * 1000)
        }
        #expect(start(8000) == 2)
        #expect(start(2000) == 1)  // 1,500 kbps affordable: 900 fits, 1,600 does not
        #expect(start(700) == 0)
        #expect(start(100) == 0)   // nothing fits: the lowest
        // The picture box wins over bandwidth.
        let small = PlaybackConstraints(maxWidth: 540, maxHeight: 960)
        #expect(ABRPolicy.startIndex(ladder: Self.ladder, constraints: small, parameters: Self.parameters, estimate: 8_000_000) == 1)
    }

    /// A segment costs its request's latency plus its bits over the bandwidth: the latency takes
    /// its share of the segment's play time before the bitrate gets any.
    @Test func latencyWeighsAgainstEachSegment() {
        // 2,000 kbps, 2 s segments: with no latency 1,500 kbps is affordable (720p does not fit);
        // at 160 ms, 2,000 * (0.75 - 0.08) = 1,340; at 600 ms, 2,000 * (0.75 - 0.3) = 900.
        #expect(Self.parameters.affordable(2_000_000, segment: .seconds(2)) == 1_500_000)
        #expect(Self.parameters.affordable(2_000_000, latency: .milliseconds(160), segment: .seconds(2)) == 1_340_000)
        #expect(Self.parameters.affordable(2_000_000, latency: .milliseconds(600), segment: .seconds(2)) == 900_000)
        // Longer segments dilute the latency; latency beyond the whole share affords nothing.
        #expect(Self.parameters.affordable(2_000_000, latency: .milliseconds(600), segment: .seconds(6)) == 1_300_000)
        #expect(Self.parameters.affordable(2_000_000, latency: .seconds(2), segment: .seconds(2)) == 0)
        // Before a media playlist is read, segments are taken to last `startSegment` (2 s).
        #expect(ABRPolicy.startIndex(ladder: Self.ladder, constraints: PlaybackConstraints(), parameters: Self.parameters,
                                     estimate: 2_400_000) == 2)
        #expect(ABRPolicy.startIndex(ladder: Self.ladder, constraints: PlaybackConstraints(), parameters: Self.parameters,
                                     estimate: 2_400_000, latency: .milliseconds(300)) == 1)
        // In play, a 540p player sees 2,400 kbps at 300 ms: 2,400 * 0.6 = 1,440 < 1,600, no up;
        // the same bandwidth at 50 ms affords 720p and, held, goes up.
        let clock = ManualClock()
        var slow = Self.policy(start: 1)
        var fast = Self.policy(start: 1)
        for segment in 1...3 {
            var far = Self.input(segment, buffered: 2, estimate: 2_400_000, clock: clock)
            far.latency = .milliseconds(300)
            var near = far
            near.latency = .milliseconds(50)
            #expect(slow.decide(far).reason == .hold)
            _ = fast.decide(near)
            clock.advance(by: .seconds(1))
        }
        #expect(slow.current == 1)
        #expect(fast.current == 2)
    }

    @Test func upWaitsForASustainedEstimateAndEnoughBuffer() {
        let clock = ManualClock()
        var policy = Self.policy(start: 0)
        // The estimate affords 720p from now on; the first look only starts the hold.
        #expect(policy.decide(Self.input(1, buffered: 2, estimate: 8_000_000, clock: clock)).reason == .hold)
        clock.advance(by: .seconds(1))
        #expect(policy.decide(Self.input(2, buffered: 2, estimate: 8_000_000, clock: clock)).reason == .hold)
        clock.advance(by: .seconds(1))
        // Held for 2 s, but the buffer is short: still no.
        #expect(policy.decide(Self.input(3, buffered: 1.2, estimate: 8_000_000, clock: clock)).reason == .hold)
        let up = policy.decide(Self.input(4, buffered: 1.8, estimate: 8_000_000, clock: clock))
        #expect(up == ABRDecision(variant: 2, reason: .up))
        #expect(policy.current == 2)
    }

    @Test func aDipInTheEstimateResetsTheHold() {
        let clock = ManualClock()
        var policy = Self.policy(start: 0)
        _ = policy.decide(Self.input(1, buffered: 2, estimate: 8_000_000, clock: clock))
        clock.advance(by: .milliseconds(1500))
        _ = policy.decide(Self.input(2, buffered: 2, estimate: 400_000, clock: clock))
        clock.advance(by: .milliseconds(1000))
        #expect(policy.decide(Self.input(3, buffered: 2, estimate: 8_000_000, clock: clock)).reason == .hold)
        clock.advance(by: .seconds(2))
        #expect(policy.decide(Self.input(4, buffered: 2, estimate: 8_000_000, clock: clock)).reason == .up)
    }

    @Test func aHealthyBufferRidesOutADipAndAShortOneGoesDown() {
        let clock = ManualClock()
        var policy = Self.policy(start: 2)
        // 1.5 Mbit/s affords 900 kbps. Fetching the next 1,600 kbps segment would take 2.1 s.
        #expect(policy.decide(Self.input(1, buffered: 2.8, estimate: 1_500_000, clock: clock)).reason == .hold)
        let down = policy.decide(Self.input(2, buffered: 1.9, estimate: 1_500_000, clock: clock))
        #expect(down == ABRDecision(variant: 1, reason: .downThroughput))
        // Under the low-buffer mark: down whatever the fetch would take.
        var other = Self.policy(start: 2)
        #expect(other.decide(Self.input(1, buffered: 0.5, estimate: 1_900_000, clock: clock)) == ABRDecision(variant: 1, reason: .downBuffer))
    }

    @Test func aPlayerThatDoesNotPlayYetIsInNoHurry() {
        let clock = ManualClock()
        var policy = Self.policy(start: 2)
        // Prepared, not playing (no buffer figure): a slow last segment does not move it down...
        #expect(policy.decide(Self.input(1, buffered: nil, estimate: 8_000_000, last: 300_000, clock: clock)).reason == .hold)
        // ... and a higher estimate may still move it up once it has held.
        var low = Self.policy(start: 0)
        _ = low.decide(Self.input(1, buffered: nil, estimate: 8_000_000, clock: clock))
        clock.advance(by: .seconds(2))
        #expect(low.decide(Self.input(2, buffered: nil, estimate: 8_000_000, clock: clock)).reason == .up)
    }

    @Test func theLastSegmentsThroughputMovesDownBeforeTheMedianDoes() {
        let clock = ManualClock()
        var policy = Self.policy(start: 2)
        // The meter still says 8 Mbit/s; the last segment came at 600 kbps.
        let decision = policy.decide(Self.input(1, buffered: 1.5, estimate: 8_000_000, last: 600_000, clock: clock))
        #expect(decision == ABRDecision(variant: 0, reason: .downThroughput))
        // The estimate affords 720p again: the up-hold starts now.
        clock.advance(by: .seconds(3))
        #expect(policy.decide(Self.input(2, buffered: 2, estimate: 8_000_000, last: 600_000, clock: clock)).reason == .hold)
    }

    @Test func playsSharingTheLinkAffordFromTheirShare() {
        let clock = ManualClock()
        // 2.4 Mbit/s alone affords 1,600 kbps (1.8 Mbit/s): the 720p play holds with a short buffer.
        var alone = Self.policy(start: 2)
        #expect(alone.decide(Self.input(1, buffered: 1.5, estimate: 2_400_000, clock: clock)).reason == .hold)
        // Three cards playing on that link get 800 kbps each, which affords 400 kbps: down.
        var shared = Self.policy(start: 2)
        #expect(shared.decide(Self.input(1, buffered: 1.5, estimate: 2_400_000, sharers: 3, clock: clock))
            == ABRDecision(variant: 0, reason: .downThroughput))
        // And a shared link holds an up-switch the whole link would allow.
        var low = Self.policy(start: 0)
        _ = low.decide(Self.input(1, buffered: 2, estimate: 2_400_000, sharers: 3, clock: clock))
        clock.advance(by: .seconds(3))
        #expect(low.decide(Self.input(2, buffered: 2, estimate: 2_400_000, sharers: 3, clock: clock)).reason == .hold)
        // No count below one: a play that is not counted yet still has the whole link.
        #expect(Self.input(1, buffered: 2, estimate: 2_400_000, sharers: 0, clock: clock).share == 2_400_000)
    }

    @Test func aStallGoesDownAtLeastOneStep() {
        let clock = ManualClock()
        var policy = Self.policy(start: 2)
        // The estimate still affords 720p, but the player ran dry.
        #expect(policy.decide(Self.input(1, buffered: 0.2, estimate: 8_000_000, stalls: 1, clock: clock))
                == ABRDecision(variant: 1, reason: .downStall))
        // The same stall counts once.
        clock.advance(by: .milliseconds(100))
        #expect(policy.decide(Self.input(2, buffered: 2, estimate: 8_000_000, stalls: 1, clock: clock)).reason == .hold)
        // A stall on a network that affords only 360p goes straight there.
        var other = Self.policy(start: 2)
        #expect(other.decide(Self.input(1, buffered: 0, estimate: 500_000, stalls: 1, clock: clock)) == ABRDecision(variant: 0, reason: .downStall))
    }

    @Test func switchingOffKeepsTheStartVariant() {
        let clock = ManualClock()
        var parameters = Self.parameters
        parameters.switching = false
        var policy = ABRPolicy(ladder: Self.ladder, constraints: PlaybackConstraints(), parameters: parameters, start: 2)
        #expect(policy.decide(Self.input(1, buffered: 0, estimate: 100_000, stalls: 3, clock: clock)) == ABRDecision(variant: 2, reason: .hold))
    }

    @Test func aRejectedVariantIsNeverChosenAgain() {
        let clock = ManualClock()
        var policy = Self.policy(start: 0)
        _ = policy.decide(Self.input(1, buffered: 2, estimate: 8_000_000, clock: clock))
        clock.advance(by: .seconds(2))
        #expect(policy.decide(Self.input(2, buffered: 2, estimate: 8_000_000, clock: clock)) == ABRDecision(variant: 2, reason: .up))
        // 720p's segments do not line up: back to 360p, and 540p is the best left.
        policy.reject(2, back: 0, permanently: true)
        #expect(policy.current == 0)
        clock.advance(by: .seconds(2))
        _ = policy.decide(Self.input(3, buffered: 2, estimate: 8_000_000, clock: clock))
        clock.advance(by: .seconds(2))
        #expect(policy.decide(Self.input(4, buffered: 2, estimate: 8_000_000, clock: clock)) == ABRDecision(variant: 1, reason: .up))
    }

    @Test func aFailedSegmentFallsBackToTheVariantBeforeAndExcludesItsOwn() {
        let clock = ManualClock()
        var policy = Self.policy(start: 1)
        clock.advance(by: .seconds(2))
        _ = policy.decide(Self.input(1, buffered: 2, estimate: 8_000_000, clock: clock))
        clock.advance(by: .seconds(2))
        #expect(policy.decide(Self.input(2, buffered: 2, estimate: 8_000_000, clock: clock)) == ABRDecision(variant: 2, reason: .up))
        // 720p's segment 2 fails: it comes from 540p, the variant of segment 1, and 720p is out.
        #expect(policy.fallback(from: 2, previous: 1) == 1)
        #expect(policy.current == 1 && policy.excluded == [2])
        clock.advance(by: .seconds(10))
        #expect(policy.decide(Self.input(3, buffered: 2, estimate: 8_000_000, clock: clock)) == ABRDecision(variant: 1, reason: .hold))
        // 540p fails too while it is the variant before: the nearest below; then nothing is left.
        #expect(policy.fallback(from: 1, previous: 1) == 0)
        #expect(policy.fallback(from: 0, previous: 0) == nil)
        #expect(policy.excluded == [0, 1, 2])
    }

    @Test func aFailedLowestVariantFallsBackUpwards() {
        var policy = Self.policy(start: 0)
        #expect(policy.fallback(from: 0, previous: 0) == 1)
        #expect(policy.current == 1)
        // A variant excluded at the start (its playlist was unreachable) is never a fallback.
        var other = Self.policy(start: 2)
        other.exclude(1)
        #expect(other.fallback(from: 2, previous: 2) == 0)
    }

    @Test func theBoxCapsUpSwitches() {
        let clock = ManualClock()
        var policy = Self.policy(start: 0, constraints: PlaybackConstraints(isLowEnd: true, lowEndMaxWidth: 540, lowEndMaxHeight: 960))
        _ = policy.decide(Self.input(1, buffered: 2, estimate: 50_000_000, clock: clock))
        clock.advance(by: .seconds(5))
        #expect(policy.decide(Self.input(2, buffered: 2, estimate: 50_000_000, clock: clock)) == ABRDecision(variant: 1, reason: .up))
        clock.advance(by: .seconds(5))
        #expect(policy.decide(Self.input(3, buffered: 2, estimate: 50_000_000, clock: clock)).reason == .hold)
    }
}
