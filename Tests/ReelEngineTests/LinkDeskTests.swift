import Foundation
import ReelCore
import ReelFeed
import ReelNet
import Synchronization
import Testing

@testable import ReelEngine

/// The link desk performs a download policy's answers for real players' demuxers: a play reads a
/// segment only when the policy hands it one, at the policy's variant, and a segment asked of a
/// play whose demuxer is not there yet is filled into the cache for it.
@Suite("Link desk")
struct LinkDeskTests {
    /// A policy whose answers the test writes; it keeps every state it was shown and every
    /// arrival it heard.
    struct Scripted: DownloadPolicy {
        let name = "scripted"
        let rule: @Sendable (LinkState) -> DownloadDecision
        let heard = Heard()

        mutating func decide(_ state: LinkState) -> DownloadDecision { rule(state) }

        mutating func downloaded(_ request: SegmentRequest, bytes: Int, seconds: Double) {
            heard.arrivals.withLock { $0.append(request) }
        }
    }

    final class Heard: Sendable {
        let arrivals = Mutex<[SegmentRequest]>([])
    }

    /// The next segment of the first video in the state that has one left, at its top variant.
    static func nextOfFirst(_ state: LinkState) -> DownloadDecision {
        guard let video = state.videos.first(where: { !$0.isComplete }) else { return .wait(until: state.now + 60) }
        return .fetch(SegmentRequest(video: video.id, segment: video.downloaded, variant: video.bitrates.count - 1))
    }

    static func join(_ seat: LinkDesk.Seat, playing: Bool, ladder: [Int] = [1_200_000, 300_000, 600_000], segments: Int = 4,
                     fill: (@Sendable (Int, Int, Cancellation) throws -> (bytes: Int, seconds: Double))? = nil) {
        seat.join(ladder: ladder, durations: Array(repeating: 2, count: segments), start: 1,
                  probe: { ABRPlayhead(position: .zero, stalls: 0, playing: playing) }, cached: { _, _ in nil }, received: nil, fill: fill)
    }

    /// Runs a blocking call on a thread of the blocking pool, as a demuxer's would run.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await BlockingPool.shared.runToEnd(body)
    }

    /// A policy that waits and says the link carries `carried` of the playing plays.
    struct Carrying: DownloadPolicy {
        final class Answer: Sendable {
            let carried = Mutex<Int?>(1)
        }
        let name = "carrying"
        let answer = Answer()
        mutating func decide(_ state: LinkState) -> DownloadDecision { .wait(until: state.now + 60) }
        mutating func carries(_ state: LinkState) -> Int? { answer.carried.withLock { $0 } }
    }

    @Test("the desk tells the engine how many playing cards the link carries when the policy's answer changes, and only then")
    func theDeskReportsWhatTheLinkCarries() async throws {
        let policy = Carrying()
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 3)
        let heard = AsyncStream<Int?>.makeStream()
        desk.onCarries { heard.continuation.yield($0) }
        // One playing card: nothing to ask. Two: the policy's answer (1) is reported once.
        let seats = (0..<3).map { desk.seat(card: "c\($0)") }
        Self.join(seats[0], playing: true)
        Self.join(seats[1], playing: true)
        Self.join(seats[2], playing: true)
        var answers = heard.stream.makeAsyncIterator()
        let first = await answers.next()
        #expect(first == .some(1))
        // The link carries them all again: reported once, as nil.
        policy.answer.carried.withLock { $0 = nil }
        desk.setOrder([(card: "next", urgent: false)])
        let second = await answers.next()
        #expect(second == .some(nil))
        heard.continuation.finish()
        let rest = await answers.next()
        #expect(rest == nil, "reported again without a change")
    }

    @Test("waiting readers are woken by a step that grants one of them, not by every step (each waiter's step woke the others: thousands of steps a second)")
    func aStepWakesTheWaitersOnlyForAGrant() async throws {
        let grant = Mutex<String?>(nil)
        let allWaiting = AsyncStream<Void>.makeStream()
        let policy = Scripted { state in
            if state.videos.filter({ $0.asks != nil }).count == 3 { allWaiting.continuation.yield() }
            if let card = grant.withLock({ card in defer { card = nil }; return card }) {
                return .fetch(SegmentRequest(video: card, segment: 0, variant: 0))
            }
            return .wait(until: .infinity)
        }
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 3)
        let seats = (0..<3).map { desk.seat(card: "c\($0)") }
        for seat in seats { Self.join(seat, playing: true, ladder: [300_000], segments: 2) }
        let cancellations = seats.map { _ in Cancellation() }
        let turns = zip(seats, cancellations).map { seat, cancellation in
            Task { await Self.blocking { seat.turn(segment: 0, previous: 0, proposed: 0, cancellation: cancellation) } }
        }
        var waiting = allWaiting.stream.makeAsyncIterator()
        await waiting.next()
        let before = desk.wakeUps
        // Steps that grant nothing (the order moves, the play rules speak) wake nobody.
        for step in 0..<5 { desk.setOrder([(card: "next\(step)", urgent: false)]) }
        desk.setPlaying(["c0": nil])
        #expect(desk.wakeUps == before)
        // A step that grants c1 its segment wakes the waiters once, and c1 reads it.
        grant.withLock { $0 = "c1" }
        desk.setOrder([(card: "granted", urgent: false)])
        #expect(await turns[1].value == 0)
        #expect(desk.wakeUps == before + 1)
        for cancellation in cancellations { cancellation.cancel() }
        for turn in turns { _ = await turn.value }
        allWaiting.continuation.finish()
    }

    @Test("a segment on its way is shown to the policy with what has arrived of it, as the play's cache counts it, until it is in")
    func theSegmentsOnTheLinkAreShown() async throws {
        let fetched = Mutex(false)
        let seen = AsyncStream<[InFlightRequest]>.makeStream()
        let policy = Scripted { state in
            seen.continuation.yield(state.inFlight)
            let first = fetched.withLock { done in defer { done = true }; return !done }
            return first ? .fetch(SegmentRequest(video: "c", segment: 0, variant: 0)) : .wait(until: state.now + 60)
        }
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 3)
        let gate = DispatchSemaphore(value: 0)
        let filled = AsyncStream<Void>.makeStream()
        desk.seat(card: "c").join(ladder: [300_000, 600_000], durations: [2, 2], start: 0,
                                  probe: { ABRPlayhead(position: .zero, stalls: 0, playing: true) }, cached: { _, _ in nil },
                                  received: { variant, segment in variant == 0 && segment == 0 ? 30_000 : nil },
                                  fill: { _, _, _ in
                                      gate.wait()
                                      filled.continuation.yield()
                                      return (bytes: 75_000, seconds: 1)
                                  })
        var states = seen.stream.makeAsyncIterator()
        // The first look: nothing on the link; it asks for segment 0 at 300 kbit/s, filled.
        #expect(await states.next() == [])
        // A step while the fill runs shows it: 75,000 bytes (2 s at 300 kbit/s), 30,000 in.
        desk.setOrder([(card: "next", urgent: false)])
        let onTheLink = try #require(await states.next())
        #expect(onTheLink.map(\.request) == [SegmentRequest(video: "c", segment: 0, variant: 0)])
        #expect(onTheLink.first?.bytes == 75_000 && onTheLink.first?.received == 30_000, "\(onTheLink)")
        // Once in, it is off the link.
        gate.signal()
        var fills = filled.stream.makeAsyncIterator()
        await fills.next()
        var after = try #require(await states.next())
        while !after.isEmpty { after = try #require(await states.next()) }
        #expect(after.isEmpty)
        seen.continuation.finish()
    }

    @Test("a play whose playlist names no bitrate learns it from a segment whole in the cache: the policy sees its bytes")
    func aCachedSegmentTeachesTheBitrate() throws {
        let shown = Mutex<[Int]>([])
        let policy = Scripted { state in
            shown.withLock { $0 = state.videos.first?.sizes.first ?? [] }
            return .wait(until: state.now + 60)
        }
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 3)
        // A media playlist alone (bitrate 0 in its ladder) whose first segment, 80,000 bytes of 2 s, is cached.
        desk.seat(card: "back").join(ladder: [0], durations: [2, 2, 2], start: 0, probe: { nil }, cached: { _, segment in
            segment == 0 ? 80_000 : nil
        }, received: nil, fill: nil)
        #expect(shown.withLock { $0 } == [80_000, 80_000, 80_000])
    }

    @Test("a card the play rules granted is a playing video for the policy from its grant, before its player shows a frame or has a probe, with where its preview ends")
    func aGrantedPlayIsPlaying() throws {
        let shown = Mutex<[String]>([])
        let ends = Mutex<[Double?]>([])
        let policy = Scripted { state in
            shown.withLock { $0 = state.videos.filter(\.isPlaying).map(\.id) }
            ends.withLock { $0 = state.videos.map(\.playsUntil) }
            return .wait(until: state.now + 60)
        }
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 3)
        // A player opening its first segment has no probe yet (nil), another is mounted and paused.
        desk.seat(card: "opening").join(ladder: [300_000], durations: [2, 2], start: 0, probe: { nil }, cached: { _, _ in nil },
                                        received: nil, fill: nil)
        Self.join(desk.seat(card: "paused"), playing: false)
        #expect(shown.withLock { $0 }.isEmpty)
        desk.setPlaying(["opening": nil])
        #expect(shown.withLock { $0 } == ["opening"])
        // A prefetch seat of a granted card is not its play.
        let prefetch = desk.seat(card: "ahead", prefetch: true)
        Self.join(prefetch, playing: false)
        desk.setPlaying(["opening": nil, "ahead": nil])
        #expect(shown.withLock { $0 } == ["opening"])
        #expect(ends.withLock { $0 } == [nil, nil, nil])
        // An autoplay preview's end reaches the policy on its play, not on others.
        desk.setPlaying(["opening": 5, "ahead": 5])
        #expect(ends.withLock { $0 } == [5, nil, nil])
    }

    @Test("a play's segment comes at the policy's variant, mapped from the ladder it sees (lowest first) to the play's own")
    func theVariantIsThePolicys() throws {
        let shown = Mutex<[Int]>([])
        let policy = Scripted { state in
            shown.withLock { $0 = state.videos.first?.bitrates ?? [] }
            return LinkDeskTests.nextOfFirst(state)
        }
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 1)
        let seat = desk.seat(card: "a")
        Self.join(seat, playing: true)
        // The top of the ladder the policy sees (1.2 Mbit/s) is the play's variant 0.
        #expect(seat.turn(segment: 0, previous: 1, proposed: 1, cancellation: Cancellation()) == 0)
        #expect(shown.withLock { $0 } == [300_000, 600_000, 1_200_000])
    }

    @Test("the policy is shown no bandwidth while the meter holds only its configured guess; a remembered or measured estimate it is shown")
    func theMetersGuessIsNotShown() throws {
        func shown(_ meter: BandwidthMeter) -> Double?? {
            let seen = Mutex<Double??>(nil)
            let policy = Scripted { state in
                seen.withLock { $0 = .some(state.bandwidthBitsPerSecond) }
                return LinkDeskTests.nextOfFirst(state)
            }
            let desk = LinkDesk(policy: policy, meter: meter, maxTransfers: 1)
            let seat = desk.seat(card: "a")
            Self.join(seat, playing: true)
            _ = seat.turn(segment: 0, previous: 1, proposed: 1, cancellation: Cancellation())
            return seen.withLock { $0 }
        }
        var config = ReelConfig()
        config.abr.meter.minElapsedMs = 2000
        // device.bandwidthEstimateKbps (8 Mbit/s) is a guess: the scheduler plans on its own.
        let guessing = BandwidthMeter(config: config)
        #expect(try #require(shown(guessing)) == nil)
        guessing.add(bytes: 1_000_000, elapsed: .seconds(4))
        #expect(try #require(shown(guessing)) == 2_000_000)
        #expect(try #require(shown(BandwidthMeter(config: config, initialKbps: 1500))) == 1_500_000)
    }

    @Test("a play waits for its turn while the link is full, and gets it when the segment on the link arrives")
    func aPlayWaitsForTheLink() async throws {
        let desk = LinkDesk(policy: Scripted(rule: Self.nextOfFirst), meter: nil, maxTransfers: 1)
        let playing = desk.seat(card: "a"), next = desk.seat(card: "b")
        Self.join(playing, playing: true)
        Self.join(next, playing: false)
        #expect(playing.turn(segment: 0, previous: 1, proposed: 1, cancellation: Cancellation()) == 0)
        // The link's one place is taken by a's segment 0: b's start waits until it arrives, and
        // then the policy (a first) gives the place to a's segment 1, which a's demuxer is not
        // at yet and, without a cache, is handed out ahead; then b's start.
        let arrived = Mutex(false)
        let waiting = Task { await Self.blocking { (next.turn(segment: 0, previous: 1, proposed: 1, cancellation: Cancellation()), arrived.withLock { $0 }) } }
        arrived.withLock { $0 = true }
        playing.arrived(segment: 0, bytes: 300_000, seconds: 0.5)
        let (variant, afterArrival) = await waiting.value
        #expect(afterArrival)
        #expect(variant == 0)
    }

    /// Grants the next segment of the first video that needs one, and lets one segment on the
    /// link until it has heard an arrival (as the link scheduler does before it has measured).
    struct Measuring: DownloadPolicy {
        final class Log: Sendable {
            let asked = Mutex<[SegmentRequest]>([])
            let heard = Mutex(false)
        }
        let name = "measuring"
        let log = Log()
        var transferLimit: Int? { log.heard.withLock { $0 } ? nil : 1 }

        mutating func decide(_ state: LinkState) -> DownloadDecision {
            let decision = LinkDeskTests.nextOfFirst(state)
            if case .fetch(let request) = decision { log.asked.withLock { $0.append(request) } }
            return decision
        }

        mutating func downloaded(_ request: SegmentRequest, bytes: Int, seconds: Double) {
            log.heard.withLock { $0 = true }
        }
    }

    @Test("a policy that has not measured the link lets one segment on it though the desk has three places; its arrival opens the link to more",
          .timeLimit(.minutes(1)))
    func anUnmeasuredLinkTakesOneSegment() async throws {
        let policy = Measuring()
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 3)
        let filled = AsyncStream<String>.makeStream()
        // The first fill stays on the link until the test lets it arrive.
        let release = DispatchSemaphore(value: 0)
        func fill(_ card: String) -> @Sendable (Int, Int, Cancellation) throws -> (bytes: Int, seconds: Double) {
            { _, segment, _ in
                filled.continuation.yield("\(card)#\(segment)")
                if card == "a", segment == 0 { release.wait() }
                return (bytes: 150_000, seconds: 0.5)
            }
        }
        Self.join(desk.seat(card: "a"), playing: true, fill: fill("a"))
        Self.join(desk.seat(card: "b"), playing: false, fill: fill("b"))
        var fills = filled.stream.makeAsyncIterator()
        #expect(await fills.next() == "a#0")
        // Steps while the first segment is on the link ask the policy nothing: its one place is taken.
        for step in 0..<3 { desk.setOrder([(card: "b", urgent: false), (card: "next\(step)", urgent: false)]) }
        #expect(policy.log.asked.withLock { $0 }.map(\.description) == ["a#0@2"])
        release.signal()
        // Measured, the link takes the desk's three places: a's next segments, then b's.
        var after: Set<String> = []
        for _ in 0..<3 { after.insert(try #require(await fills.next())) }
        #expect(after.count == 3)
        #expect(policy.log.asked.withLock { $0 }.count >= 4)
    }

    @Test("a paused card's demuxer resting in the middle of a segment holds no place on the link: the playing card gets its turn",
          .timeLimit(.minutes(1)))
    func aRestingDemuxerHoldsNoPlace() async throws {
        // The policy grants what a reader asks, the first asker first; one place on the link.
        let given = Mutex<[SegmentRequest]>([])
        let policy = Scripted { state in
            guard let asked = state.videos.first(where: { $0.asks != nil })?.asks else { return .wait(until: state.now + 60) }
            given.withLock { $0.append(asked) }
            return .fetch(asked)
        }
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 1)
        let mounted = desk.seat(card: "mounted"), short = desk.seat(card: "short")
        Self.join(mounted, playing: false)
        Self.join(short, playing: true)
        desk.setPlaying(["short": nil])
        // The mounted card's demuxer takes segment 0 and rests in it (its buffer is full; it
        // never closes the segment while paused).
        #expect(mounted.turn(segment: 0, previous: 1, proposed: 1, cancellation: Cancellation()) == 1)
        // The playing short's demuxer asks for its next segment: it gets the place at once (held
        // by the resting one, it would wait for good; the time limit then lets it go).
        let cancellation = Cancellation()
        _ = await withTaskCancellationHandler {
            await Self.blocking { short.turn(segment: 0, previous: 1, proposed: 1, cancellation: cancellation) }
        } onCancel: {
            cancellation.cancel()
        }
        #expect(given.withLock { $0 }.map(\.video) == ["mounted", "short"])
    }

    @Test("a segment asked of a play whose demuxer is elsewhere is filled into the cache, and the demuxer then takes it at once")
    func aSegmentAheadIsFilled() async throws {
        let policy = Scripted(rule: Self.nextOfFirst)
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 1)
        let seat = desk.seat(card: "a")
        let filled = AsyncStream<(variant: Int, segment: Int)>.makeStream()
        Self.join(seat, playing: true, segments: 2) { variant, segment, _ in
            filled.continuation.yield((variant, segment))
            return (bytes: 250_000, seconds: 0.25)
        }
        var fills = filled.stream.makeAsyncIterator()
        let first = try #require(await fills.next())
        #expect(first.variant == 0 && first.segment == 0)
        let second = try #require(await fills.next())
        #expect(second.variant == 0 && second.segment == 1)
        // Both are the play's: its demuxer reads them without waiting, at the variant filled.
        #expect(seat.turn(segment: 0, previous: 1, proposed: 1, cancellation: Cancellation()) == 0)
        #expect(seat.turn(segment: 1, previous: 0, proposed: 0, cancellation: Cancellation()) == 0)
    }

    @Test("a play joins with the segments whole in the cache from its first as downloaded: the policy is asked for the next one, and the demuxer reads those at once, the first at its start variant")
    func aPlayStartsFromWhatTheCacheHolds() throws {
        let asked = Mutex<[SegmentRequest]>([])
        let downloaded = Mutex<[Int]>([])
        let policy = Scripted { state in
            let decision = LinkDeskTests.nextOfFirst(state)
            if case .fetch(let request) = decision { asked.withLock { $0.append(request) } }
            downloaded.withLock { $0 = state.videos.first?.downloadedVariants ?? [] }
            return decision
        }
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 1)
        let seat = desk.seat(card: "a")
        // The play's ladder is 1.2, 0.3 and 0.6 Mbit/s and it starts on 0.3 (its variant 1). The
        // cache holds segment 0 at 0.3 and at 1.2 (a card scrolled back to, played first at the
        // top), segment 1 at 0.6 and 1.2 (the lowest of them taken), and nothing of segment 2.
        let held: Set<[Int]> = [[1, 0], [0, 0], [2, 1], [0, 1]]
        seat.join(ladder: [1_200_000, 300_000, 600_000], durations: [2, 2, 2, 2], start: 1,
                  probe: { ABRPlayhead(position: .zero, stalls: 0, playing: true) }, cached: { held.contains([$0, $1]) ? 100_000 : nil },
                  received: nil, fill: { _, _, _ in (bytes: 150_000, seconds: 1) })
        // Ladder positions, lowest bitrate first: 0.3 is 0, 0.6 is 1.
        #expect(downloaded.withLock { $0 }.prefix(2) == [0, 1])
        #expect(asked.withLock { $0 }.first?.segment == 2)
        #expect(seat.turn(segment: 0, previous: 1, proposed: 1, cancellation: Cancellation()) == 1)
        #expect(seat.turn(segment: 1, previous: 1, proposed: 0, cancellation: Cancellation()) == 2)
    }

    @Test("under today's policy every play reads as its own rules ask, at once, however many ask")
    func todayGrantsWhatIsAsked() throws {
        let desk = LinkDesk(policy: TodayPolicy(), meter: nil, maxTransfers: .max)
        let seats = (0..<4).map { desk.seat(card: "c\($0)") }
        let fills = Mutex(0)
        for seat in seats {
            Self.join(seat, playing: true) { _, _, _ in
                fills.withLock { $0 += 1 }
                return (bytes: 0, seconds: 0)
            }
        }
        // Nothing is fetched before a play asks; each gets its segment at its own variant, with
        // every other one still on the link.
        for (index, seat) in seats.enumerated() {
            #expect(seat.turn(segment: 0, previous: 1, proposed: index % 3, cancellation: Cancellation()) == index % 3)
        }
        #expect(seats[0].turn(segment: 1, previous: 0, proposed: 2, cancellation: Cancellation()) == 2)
        #expect(fills.withLock { $0 } == 0)
    }

    @Test("a card's prefetch seat stays in the policy's view until the card leaves the preload order or its player comes")
    func prefetchSeats() throws {
        let shown = Mutex<[(id: String, playing: Bool, reach: Double?)]>([])
        let policy = Scripted { state in
            shown.withLock { $0 = state.videos.map { ($0.id, $0.isPlaying, $0.reachProbability) } }
            return .wait(until: state.now + 3600)
        }
        let desk = LinkDesk(policy: policy, meter: nil, maxTransfers: 1)
        desk.setOrder([("a", true), ("b", false)])
        Self.join(desk.seat(card: "a", prefetch: true), playing: false)
        Self.join(desk.seat(card: "b", prefetch: true), playing: false)
        // Nearest first; the card about to be seen is reached for certain, the other is the
        // policy's guess.
        #expect(shown.withLock { $0.map(\.id) } == ["a", "b"])
        #expect(shown.withLock { $0.map(\.reach) } == [1, nil])
        desk.setOrder([("a", true)])
        #expect(shown.withLock { $0.map(\.id) } == ["a"])
        // The card mounts: its player's seat takes over from the prefetch one.
        Self.join(desk.seat(card: "a"), playing: true)
        #expect(shown.withLock { $0.count } == 1)
        #expect(shown.withLock { $0.first?.playing } == true)
    }

    @Test("a play waiting for a turn the policy does not give goes on when its play is cancelled or leaves")
    func aWaitingPlayIsLetGo() async throws {
        let desk = LinkDesk(policy: Scripted { .wait(until: $0.now + 3600) }, meter: nil, maxTransfers: 1)
        let cancelled = desk.seat(card: "a"), leaving = desk.seat(card: "b")
        Self.join(cancelled, playing: true)
        Self.join(leaving, playing: false)
        let cancellation = Cancellation()
        let first = Task { await Self.blocking { cancelled.turn(segment: 0, previous: 2, proposed: 2, cancellation: cancellation) } }
        let second = Task { await Self.blocking { leaving.turn(segment: 0, previous: 1, proposed: 1, cancellation: Cancellation()) } }
        cancellation.cancel()
        leaving.leave()
        // Each goes on with the variant it had.
        #expect(await first.value == 2)
        #expect(await second.value == 1)
    }
}
