import ReelCore
import ReelFeed
import Testing

/// The link scheduler, driven by hand on a manual clock: states in, decisions out.
@Suite("Link scheduler")
struct LinkSchedulerTests {
    /// Three variants of 1-second segments: 400, 800 and 1600 kbit/s.
    static let bitrates = [400_000, 800_000, 1_600_000]

    static func video(_ id: String, distance: Int, segments: Int = 10, downloaded: [Int] = [], playhead: Double = 0,
                      retention: [Double]? = nil, reach: Double? = nil) -> VideoState {
        VideoState(id: id, distance: distance, isPlaying: distance == 0, playhead: playhead, downloaded: downloaded.count,
                   downloadedVariants: downloaded, segmentDurations: Array(repeating: 1, count: segments), bitrates: bitrates,
                   sizes: bitrates.map { Array(repeating: $0 / 8, count: segments) }, retention: retention, reachProbability: reach)
    }

    static func parameters(_ settings: (inout SchedulerSettings) -> Void = { _ in }) -> LinkScheduler.Parameters {
        var config = ReelConfig()
        settings(&config.scheduler)
        return LinkScheduler.Parameters(config)
    }

    /// The request of a fetch; nil for a wait.
    static func fetched(_ decision: DownloadDecision) -> SegmentRequest? {
        if case .fetch(let request) = decision { request } else { nil }
    }

    /// A scheduler that has measured `bitsPerSecond` on its last transfers.
    static func scheduler(measured bitsPerSecond: [Int], _ parameters: LinkScheduler.Parameters = parameters()) -> LinkScheduler {
        var scheduler = LinkScheduler(parameters: parameters)
        for rate in bitsPerSecond {
            scheduler.downloaded(SegmentRequest(video: "x", segment: 0, variant: 0), bytes: rate / 8, seconds: 1)
        }
        return scheduler
    }

    /// A world on a manual clock: one link at `bitsPerSecond`, one transfer at a time, the
    /// playing video played at 1x over what has arrived, every decision performed. Returns the
    /// bytes fetched and the seconds stalled by `until`.
    static func run(_ scheduler: inout LinkScheduler, videos: [VideoState], bitsPerSecond: Double, until end: Double)
        -> (bytes: Int, stalled: Double, videos: [VideoState]) {
        var videos = videos
        var now = 0.0, bytes = 0, stalled = 0.0
        func play(_ seconds: Double) {
            let moved = min(seconds, videos[0].buffered)
            videos[0].playhead += moved
            stalled += seconds - moved
        }
        while now < end {
            let state = LinkState(now: now, bandwidthBitsPerSecond: nil, latency: 0.05, videos: videos)
            switch scheduler.decide(state) {
            case .fetchThumbnail(let card):
                Issue.record("a thumbnail of \(card) asked for in a state without thumbnails")
                return (bytes, stalled, videos)
            case .wait(let until):
                let step = max(0.001, until - now)
                play(step)
                now += step
            case .fetch(let request):
                let index = videos.firstIndex { $0.id == request.video }!
                let size = videos[index].sizes[request.variant][request.segment]
                let seconds = 0.05 + Double(size) * 8 / bitsPerSecond
                play(seconds)
                now += seconds
                videos[index].downloaded += 1
                videos[index].downloadedVariants.append(request.variant)
                bytes += size
                scheduler.downloaded(request, bytes: size, seconds: seconds)
            }
        }
        return (bytes, stalled, videos)
    }

    @Test("a video that retention says few watch past 3 s gets a small buffer; one everybody watches reads ahead")
    func retentionBoundsTheBuffer() {
        let leavers = [1, 0.97, 0.96, 0.1, 0.08, 0.07, 0.06, 0.05, 0.04, 0.03, 0.02]
        let stayers = Array(repeating: 1.0, count: 11)
        var early = Self.scheduler(measured: [20_000_000])
        let short = Self.run(&early, videos: [Self.video("a", distance: 0, downloaded: [2], retention: leavers)], bitsPerSecond: 20_000_000, until: 0.5)
        var late = Self.scheduler(measured: [20_000_000])
        let long = Self.run(&late, videos: [Self.video("b", distance: 0, downloaded: [2], retention: stayers)], bitsPerSecond: 20_000_000, until: 0.5)
        #expect(short.videos[0].buffered <= 2.6, "stops short of the third second: \(short.videos[0].buffered) s")
        #expect(long.videos[0].buffered >= 3.4, "reads ahead to scheduler.maxBufferMs: \(long.videos[0].buffered) s")
        #expect(short.stalled == 0 && long.stalled == 0)
    }

    @Test("a segment that can no longer arrive in time is given up; one that can is kept")
    func givesUpWhatArrivesTooLate() {
        var scheduler = Self.scheduler(measured: [300_000, 300_000, 300_000])
        let playing = Self.video("a", distance: 0, downloaded: [2, 2], playhead: 1.5)
        let late = InFlightRequest(request: SegmentRequest(video: "a", segment: 2, variant: 2), bytes: 200_000, received: 20_000)
        let gone = InFlightRequest(request: SegmentRequest(video: "z", segment: 0, variant: 0), bytes: 50_000, received: 0)
        let state = LinkState(now: 10, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing])
        #expect(scheduler.giveUp([late, gone], in: state) == [late.request, gone.request])
        // The same transfer almost done arrives in time.
        let nearlyThere = InFlightRequest(request: late.request, bytes: 200_000, received: 195_000)
        #expect(scheduler.giveUp([nearlyThere], in: state).isEmpty)
        // With a long buffer it is kept.
        var comfortable = playing
        comfortable.downloaded = 8
        comfortable.downloadedVariants = Array(repeating: 2, count: 8)
        #expect(scheduler.giveUp([late], in: LinkState(now: 10, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [comfortable])).isEmpty)
    }

    @Test("a transfer slower than the estimate is judged at its own pace; what it gives up is fetched afresh at the lowest variant")
    func aSlowTransferIsJudgedAtItsPace() throws {
        var scheduler = Self.scheduler(measured: [3_000_000, 3_000_000, 3_000_000])
        let playing = Self.video("a", distance: 0, downloaded: [2, 2], playhead: 1.2)
        let state = LinkState(now: 10, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing])
        let request = SegmentRequest(video: "a", segment: 2, variant: 2)
        // At the estimate (2.4 Mbit/s planned), the rest arrives in 0.63 s, within the 0.8 s buffered.
        #expect(scheduler.giveUp([InFlightRequest(request: request, bytes: 200_000, received: 10_000)], in: state).isEmpty)
        // At the 200 kbit/s it has come at so far, in 7.6 s; afresh at the lowest variant, in 2 s.
        let slow = InFlightRequest(request: request, bytes: 200_000, received: 10_000, bitsPerSecond: 200_000)
        #expect(scheduler.giveUp([slow], in: state) == [request])
        // Asked again once it is due, the scheduler fetches that segment at the lowest variant; the next one by its plan.
        var due = playing
        due.playhead = 1.6
        #expect(Self.fetched(scheduler.decide(LinkState(now: 10.4, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [due])))
                == SegmentRequest(video: "a", segment: 2, variant: 0))
        scheduler.downloaded(SegmentRequest(video: "a", segment: 2, variant: 0), bytes: 50_000, seconds: 0.2)
        var after = playing
        after.downloaded = 3
        after.downloadedVariants = [2, 2, 0]
        after.playhead = 2.5
        let next = try #require(Self.fetched(scheduler.decide(LinkState(now: 11.5, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [after]))))
        #expect(next.segment == 3 && next.variant > 0, "\(next)")
    }

    @Test("the byte price moves the trade-off: a higher price fetches fewer bytes")
    func bytePriceMovesTheTradeOff() {
        let videos = [Self.video("a", distance: 0, retention: [1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25]),
                      Self.video("b", distance: 1, reach: 0.4), Self.video("c", distance: 2, reach: 0.3)]
        var cheap = Self.scheduler(measured: [3_000_000], Self.parameters { $0.byteCost = 0.1 })
        var dear = Self.scheduler(measured: [3_000_000], Self.parameters { $0.byteCost = 2 })
        let cheapRun = Self.run(&cheap, videos: videos, bitsPerSecond: 3_000_000, until: 6)
        let dearRun = Self.run(&dear, videos: videos, bitsPerSecond: 3_000_000, until: 6)
        #expect(dearRun.bytes < cheapRun.bytes, "\(dearRun.bytes) bytes at 2 per Mbit, \(cheapRun.bytes) at 0.1")
        #expect((dearRun.videos[0].downloadedVariants.max() ?? -1) < (cheapRun.videos[0].downloadedVariants.max() ?? -1))
    }

    @Test("a stall however short has a price: on a fast link the playing video's next segment goes when due, not once the buffer is dry")
    func aShortStallHasAPrice() {
        // One variant; the viewers at 2.7 s mostly leave before 3 s, where the next segment
        // starts. Its download (75 ms) stalls little, so priced by its seconds alone the bytes
        // it may waste outweigh it until the buffer is dry, and a real player then stalls for
        // the download and its own restart.
        var playing = VideoState(id: "a", distance: 0, isPlaying: true, playhead: 2.7, downloaded: 3,
                                 downloadedVariants: [0, 0, 0], segmentDurations: Array(repeating: 1, count: 10),
                                 bitrates: [400_000], sizes: [Array(repeating: 50_000, count: 10)],
                                 retention: [1, 0.6, 0.36, 0.05, 0.04, 0.03, 0.02, 0.01, 0.01, 0.01, 0.01])
        let state = LinkState(now: 5, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing])
        var priced = Self.scheduler(measured: [20_000_000])
        #expect(Self.fetched(priced.decide(state)) == SegmentRequest(video: "a", segment: 3, variant: 0))
        var secondsOnly = Self.scheduler(measured: [20_000_000], Self.parameters { $0.stallEventCost = 0 })
        #expect(Self.fetched(secondsOnly.decide(state)) == nil)
        playing.playhead = 3
        #expect(Self.fetched(secondsOnly.decide(LinkState(now: 5.3, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing])))
                == SegmentRequest(video: "a", segment: 3, variant: 0), "dry: fetched whatever the price")
    }

    @Test("a link that collapses lowers the bitrate and holds back a start the user may not reach rather than stall")
    func collapseLowersTheBitrate() {
        let playing = Self.video("a", distance: 0, downloaded: [2, 2, 2], playhead: 1.8)
        let next = Self.video("b", distance: 1, reach: 0.8)
        let state = LinkState(now: 5, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing, next])
        var fast = Self.scheduler(measured: Array(repeating: 8_000_000, count: 5))
        #expect(fast.decide(state) == .fetch(SegmentRequest(video: "b", segment: 0, variant: 2)), "room for the next start")
        var collapsed = Self.scheduler(measured: Array(repeating: 8_000_000, count: 5) + Array(repeating: 400_000, count: 5))
        #expect(collapsed.decide(state) == .fetch(SegmentRequest(video: "a", segment: 3, variant: 0)))
        // Played on at the collapsed rate, it stays on the lowest variant.
        var run = collapsed
        let after = Self.run(&run, videos: [playing, next], bitsPerSecond: 400_000, until: 6)
        #expect(after.videos[0].downloadedVariants.dropFirst(3).allSatisfy { $0 == 0 })
    }

    @Test("the default retention curve learns the user's own watch times from their swipes")
    func learnsWatchTimes() {
        var scheduler = Self.scheduler(measured: [8_000_000], Self.parameters { $0.defaultWatchMs = 8000 })
        #expect(scheduler.learnedMeanWatch == 8)
        for index in 0..<6 {
            // The user leaves each video after 1 s: the next decision shows the next one playing.
            let watched = Self.video("v\(index)", distance: 0, downloaded: [0, 0], playhead: 1)
            _ = scheduler.decide(LinkState(now: Double(index), bandwidthBitsPerSecond: nil, latency: 0.05, videos: [watched]))
        }
        _ = scheduler.decide(LinkState(now: 7, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [Self.video("last", distance: 0)]))
        #expect(scheduler.learnedMeanWatch < 3, "\(scheduler.learnedMeanWatch) s")
    }

    @Test("a carousel's other playing video gets its next segment once due, before any start ahead, and not before")
    func everyPlayingVideoIsServed() throws {
        // Two cards of a carousel play: the first has 3 s buffered, the second is down to 0.2 s.
        let first = Self.video("c1", distance: 0, downloaded: [1, 1, 1, 1], playhead: 1)
        var second = Self.video("c2", distance: 0, downloaded: [1], playhead: 0.8)
        let ahead = Self.video("next", distance: 1)
        var scheduler = Self.scheduler(measured: [8_000_000])
        let due = scheduler.decide(LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [first, second, ahead]))
        let request = try #require(Self.fetched(due), "waited: \(due)")
        #expect(request.video == "c2" && request.segment == 1, "\(request)")
        // With its buffer well above a segment's download time it waits its turn: the start ahead goes first.
        second.downloaded = 3
        second.downloadedVariants = [1, 2, 2]
        let notDue = scheduler.decide(LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [first, second, ahead]))
        let start = try #require(Self.fetched(notDue), "waited: \(notDue)")
        #expect(start.video == "next" && start.segment == 0, "\(start)")
    }

    /// A video of 2-second segments at the three bitrates.
    static func twoSecondVideo(_ id: String, distance: Int, downloaded: [Int] = [], playhead: Double = 0) -> VideoState {
        VideoState(id: id, distance: distance, isPlaying: distance == 0, playhead: playhead, downloaded: downloaded.count,
                   downloadedVariants: downloaded, segmentDurations: Array(repeating: 2, count: 10), bitrates: bitrates,
                   sizes: bitrates.map { Array(repeating: $0 / 4, count: 10) })
    }

    @Test("a start does not share the link with a playing video's segment on its way that would then arrive late; it goes once that segment is nearly in")
    func aStartWaitsForAPlayingSegmentOnItsWay() throws {
        // A carousel: the first card has 8 s in hand; the second is 0.8 s into its first segment,
        // which is on its way (400 kB, 0.5 s alone at the 6.4 Mbit/s planned). Beside the next
        // card's start it would take 1 s, past the 0.9 s before the playhead reaches its end.
        let first = Self.twoSecondVideo("c1", distance: 0, downloaded: [2, 2, 2, 2])
        let second = Self.twoSecondVideo("c2", distance: 0, downloaded: [2], playhead: 0.8)
        let ahead = Self.twoSecondVideo("next", distance: 1)
        var scheduler = Self.scheduler(measured: [8_000_000])
        func state(received: Int?) -> LinkState {
            let flights = received.map { [InFlightRequest(request: SegmentRequest(video: "c2", segment: 0, variant: 2), bytes: 400_000,
                                                          received: $0)] } ?? []
            return LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [first, second, ahead], inFlight: flights)
        }
        let crowded = scheduler.decide(state(received: 0))
        #expect(Self.fetched(crowded) == nil, "\(crowded)")
        // Nearly in (100 kB to come), the start no longer makes it late.
        let room = try #require(Self.fetched(scheduler.decide(state(received: 300_000))))
        #expect(room.video == "next" && room.segment == 0, "\(room)")
        // A caller that cannot tell what is on the link has the start go as before.
        let blind = try #require(Self.fetched(scheduler.decide(state(received: nil))))
        #expect(blind.video == "next", "\(blind)")
    }

    @Test("the playing video's next segment, once due, does not share the link with its segment on its way that would then arrive late; it goes once that one is nearly in")
    func theNextSegmentWaitsForTheOneOnItsWay() throws {
        // 3.2 s into a video whose second segment (400 kB, 0.5 s alone at the 6.4 Mbit/s
        // planned) is on its way: 0.8 s before the playhead reaches its end, 0.5 s less the
        // margin. The third segment is due. Beside the second with all of it to come, the
        // second would take 1 s: it waits. With 100 kB to come (0.25 s shared) it goes.
        let playing = Self.twoSecondVideo("a", distance: 0, downloaded: [2, 2], playhead: 3.2)
        var scheduler = Self.scheduler(measured: [8_000_000])
        func state(received: Int) -> LinkState {
            LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing],
                      inFlight: [InFlightRequest(request: SegmentRequest(video: "a", segment: 1, variant: 2), bytes: 400_000, received: received)])
        }
        let crowded = scheduler.decide(state(received: 0))
        #expect(Self.fetched(crowded) == nil, "\(crowded)")
        let due = try #require(Self.fetched(scheduler.decide(state(received: 300_000))))
        #expect(due.video == "a" && due.segment == 2, "\(due)")
        // Not knowing what is on the link, it goes as before.
        let blind = try #require(Self.fetched(scheduler.decide(LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing]))))
        #expect(blind.segment == 2, "\(blind)")
    }

    @Test("a start is fetched at the variant of its own video's plan; at the playing video's bitrate only where the score charges a change across videos")
    func aStartTakesItsOwnVariant() throws {
        // The playing video has one variant of 400 kbit/s, with 3 s buffered; the next one has the ladder.
        let playing = VideoState(id: "single", distance: 0, isPlaying: true, playhead: 0, downloaded: 3, downloadedVariants: [0, 0, 0],
                                 segmentDurations: Array(repeating: 1, count: 10), bitrates: [400_000],
                                 sizes: [Array(repeating: 50_000, count: 10)])
        let state = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing, Self.video("next", distance: 1)])
        var feed = Self.scheduler(measured: [20_000_000])
        let own = try #require(Self.fetched(feed.decide(state)))
        #expect(own.video == "next" && own.segment == 0 && own.variant == 2, "\(own)")
        var parameters = Self.parameters()
        parameters.chargesChangeAcrossVideos = true
        var challenge = Self.scheduler(measured: [20_000_000], parameters)
        let near = try #require(Self.fetched(challenge.decide(state)))
        #expect(near.video == "next" && near.segment == 0 && near.variant == 0, "\(near)")
    }

    @Test("a fling's landing card gets its start first: nearer cards the fling flies over, which the user is unlikely to stop on, wait")
    func theLandingCardStartsFirst() throws {
        // The feed's state in a fling: the playing card with 3 s buffered, two cards the scroll
        // flies past (a 5 % chance the user stops on each), then the card it lands on (certain).
        let playing = Self.video("playing", distance: 0, downloaded: [1, 1, 1, 1], playhead: 1)
        let state = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [
            playing, Self.video("past1", distance: 1, reach: 0.05), Self.video("past2", distance: 2, reach: 0.05),
            Self.video("landing", distance: 3, reach: 1),
        ])
        var scheduler = Self.scheduler(measured: [8_000_000])
        let first = try #require(Self.fetched(scheduler.decide(state)))
        #expect(first.video == "landing" && first.segment == 0, "\(first)")
        // Once the fling has stopped there and the landing card is the next, the cards flown
        // past are still not worth a start before it.
        var after = state
        after.videos[3].downloaded = 1
        after.videos[3].downloadedVariants = [first.variant]
        let second = scheduler.decide(after)
        #expect(Self.fetched(second)?.video != "past1" && Self.fetched(second)?.video != "past2", "\(second)")
    }

    @Test("a thumbnail waits behind a start that is due; it goes before the starts of cards beyond its own, and never makes the playing video late")
    func aThumbnailWaitsBehindADueStart() throws {
        // The playing video has 3 s buffered on a fast link: the next card's start is due.
        let playing = Self.video("playing", distance: 0, downloaded: [1, 1, 1, 1], playhead: 1)
        let next = Self.video("next", distance: 1)
        let far = Self.video("far", distance: 3)
        var scheduler = Self.scheduler(measured: [8_000_000])
        let sameCard = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing, next, far],
                                 thumbnails: [ThumbnailState(id: "next", distance: 1, bytes: 20_000)])
        let start = try #require(Self.fetched(scheduler.decide(sameCard)), "the start before the thumbnail")
        #expect(start.video == "next" && start.segment == 0, "\(start)")
        // With that start fetched, the thumbnail comes before the start of a card farther on.
        var started = sameCard
        started.videos[1].downloaded = 1
        started.videos[1].downloadedVariants = [start.variant]
        #expect(scheduler.decide(started) == .fetchThumbnail("next"))
        // A thumbnail on screen goes before any start ahead.
        let onScreen = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing, next],
                                 thumbnails: [ThumbnailState(id: "merch", distance: 0, bytes: 20_000)])
        #expect(scheduler.decide(onScreen) == .fetchThumbnail("merch"))
        // When the playing video's next segment is due, even a thumbnail on screen waits.
        var low = onScreen
        low.videos[0].playhead = 3.9
        let due = try #require(Self.fetched(scheduler.decide(low)), "the playing video's segment first")
        #expect(due.video == "playing" && due.segment == 4, "\(due)")
        // With no video at all, a thumbnail is fetched at once.
        let alone = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [],
                              thumbnails: [ThumbnailState(id: "merch", distance: 0, bytes: 20_000)])
        #expect(scheduler.decide(alone) == .fetchThumbnail("merch"))
    }

    @Test("a start held back only by the playing video's next segment gets that segment now rather than an idle link; a start not worth its bytes does not")
    func aHeldStartPullsThePlayingSegmentForward() throws {
        // 600 kbit/s: the playing video's next segment (400 kbit/s, 1 s) takes about 0.9 s and is
        // not due yet with 1.6 s buffered, but the next card's start (as long) would leave it
        // late.
        let playing = Self.video("playing", distance: 0, downloaded: [0, 0, 0], playhead: 1.4)
        var scheduler = Self.scheduler(measured: [600_000, 600_000, 600_000])
        let held = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing, Self.video("next", distance: 1)])
        let sooner = try #require(Self.fetched(scheduler.decide(held)), "the link idles while a start waits")
        #expect(sooner.video == "playing" && sooner.segment == 3, "\(sooner)")
        // With that segment in, the start goes.
        var fed = held
        fed.videos[0].downloaded = 4
        fed.videos[0].downloadedVariants = [0, 0, 0, sooner.variant]
        let start = try #require(Self.fetched(scheduler.decide(fed)))
        #expect(start.video == "next" && start.segment == 0, "\(start)")
        // A card the user is unlikely to reach: its start is not worth its bytes, and the playing
        // video waits for its segment to be due.
        let unlikely = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05,
                                 videos: [playing, Self.video("next", distance: 1, reach: 0.05)])
        let decision = scheduler.decide(unlikely)
        #expect(Self.fetched(decision) == nil, "fetched early for a start not worth its bytes: \(decision)")
    }

    @Test("a preview that stops by itself needs nothing past its end: the start of the card that plays next goes first")
    func aPreviewNeedsNothingPastItsEnd() throws {
        // On a 600 kbit/s link the playing video has 1 s buffered, up to 5 s; the next card has
        // nothing yet.
        var playing = Self.video("playing", distance: 0, downloaded: [0, 0, 0, 0, 0], playhead: 4)
        let next = Self.video("next", distance: 1)
        var scheduler = Self.scheduler(measured: [600_000, 600_000, 600_000])
        let watched = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing, next])
        let due = try #require(Self.fetched(scheduler.decide(watched)))
        #expect(due.video == "playing" && due.segment == 5, "played on, its next segment is due first: \(due)")
        // The same play as a 5-s preview: it has all it will play; the next card's start goes.
        playing.playsUntil = 5
        #expect(!playing.needsMore)
        let preview = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [playing, next])
        let start = try #require(Self.fetched(scheduler.decide(preview)))
        #expect(start.video == "next" && start.segment == 0, "\(start)")
        // Once that start is in, nothing is fetched past the preview's end.
        var started = preview
        started.videos[1].downloaded = 1
        started.videos[1].downloadedVariants = [start.variant]
        if case .fetch(let request) = scheduler.decide(started) {
            #expect(request.video != "playing", "fetched past the preview's end: \(request)")
        }
        // A preview ending inside a segment still needs that segment.
        playing.playsUntil = 5.5
        #expect(playing.needsMore)
    }

    @Test("a link that collapses drops a carousel to one playing card rather than stall three; it carries them again once the link has room")
    func aCollapsedLinkCarriesOneCard() {
        // Three cards of a carousel play, each 400 kbit/s at its lowest variant, 0.5 s buffered.
        let cards = (0..<3).map { Self.video("c\($0)", distance: 0, downloaded: [0], playhead: 0.5) }
        let state = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: cards)
        var scheduler = Self.scheduler(measured: [8_000_000, 8_000_000, 8_000_000])
        #expect(scheduler.carries(state) == nil, "a link of 8 Mbit/s carries three")
        // The link collapses to 600 kbit/s. While every card holds more than its next segment
        // takes, nothing stops yet (the estimate alone is no proof)...
        Self.measure(&scheduler, 600_000)
        let safe = LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05,
                             videos: (0..<3).map { Self.video("c\($0)", distance: 0, downloaded: [0, 0, 0], playhead: 0.5) })
        #expect(scheduler.carries(safe) == nil)
        // ...once they run short, it carries one of them (the first in the state's order).
        #expect(scheduler.carries(state) == 1)
        // Narrowed, the state shows one card playing; a little more bandwidth is not enough to
        // start a second (no starting and stopping at the edge)...
        let one = LinkState(now: 1, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [cards[0], cards[1].notPlaying, cards[2].notPlaying])
        Self.measure(&scheduler, 1_000_000)
        #expect(scheduler.carries(one) == 1)
        // ...a link with room for two with headroom carries two, then all three.
        Self.measure(&scheduler, 2_000_000)
        #expect(scheduler.carries(one) == 2)
        Self.measure(&scheduler, 8_000_000)
        let two = LinkState(now: 2, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [cards[0], cards[1], cards[2].notPlaying])
        #expect(scheduler.carries(two) == nil)
        // One card alone is always carried; today's policy never narrows.
        var slow = Self.scheduler(measured: [100_000])
        #expect(slow.carries(LinkState(now: 0, bandwidthBitsPerSecond: nil, latency: 0.05, videos: [cards[0]])) == nil)
        var today = TodayPolicy()
        #expect(today.carries(state) == nil)
    }

    @Test("with measureFirst an unmeasured link carries one segment at a time; the first transfer that measures it opens the link to more")
    func anUnmeasuredLinkCarriesOneSegmentAtATime() {
        // Off by default: the caller's bound from the start.
        #expect(LinkScheduler(parameters: Self.parameters()).transferLimit == nil)
        var scheduler = LinkScheduler(parameters: Self.parameters { $0.measureFirst = true })
        #expect(scheduler.transferLimit == 1)
        #expect(scheduler.transfers(within: 3) == 1)
        // A transfer of no bytes (a cache hit reported as such) measures nothing.
        scheduler.downloaded(SegmentRequest(video: "v", segment: 0, variant: 0), bytes: 0, seconds: 0.01)
        #expect(scheduler.transfers(within: 3) == 1)
        // Even one too quick to give a sample (within the latency) tells that the link moves bytes.
        _ = scheduler.decide(LinkState(now: 0, bandwidthBitsPerSecond: 8_000_000, latency: 0.05, videos: [Self.video("v", distance: 0)]))
        scheduler.downloaded(SegmentRequest(video: "v", segment: 0, variant: 2), bytes: 200_000, seconds: 0.04)
        #expect(scheduler.transferLimit == nil)
        #expect(scheduler.transfers(within: 3) == 3)
        // Today's policy keeps the caller's bound throughout.
        #expect(TodayPolicy().transfers(within: 5) == 5)
    }

    /// Transfers at `bitsPerSecond`, more than its window of samples holds.
    static func measure(_ scheduler: inout LinkScheduler, _ bitsPerSecond: Int) {
        for _ in 0..<8 {
            scheduler.downloaded(SegmentRequest(video: "c0", segment: 1, variant: 0), bytes: bitsPerSecond / 8, seconds: 1.05)
        }
    }
}

extension VideoState {
    /// The same video, not playing (a carousel card the link does not carry).
    fileprivate var notPlaying: VideoState {
        var copy = self
        copy.isPlaying = false
        copy.distance = 1
        return copy
    }
}
