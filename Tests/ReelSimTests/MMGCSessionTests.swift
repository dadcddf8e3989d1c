import ReelSim
import Testing

/// The challenge's player, queue and score against cases worked out by hand, on a link of
/// 950,000 payload bytes/s (8 Mbit/s): a 95,000-byte chunk takes 100 ms plus the request's 80.
@Suite("MMGC session")
struct MMGCSessionTests {
    static let trace = MMGCTrace(name: "flat", seconds: [0, 1000], mbps: [8, 8])
    static let small = 95_000

    /// Video `name` of `chunks` chunks, every chunk `small` bytes except level 2's `big`.
    static func video(_ name: String, chunks: Int, big: Int = small) -> MMGCVideo {
        let retention: [Double] = (0...chunks).map { (chunk: Int) -> Double in 1 - Double(chunk) / Double(chunks + 1) }
        let levels: [[Int]] = [Array(repeating: small, count: chunks), Array(repeating: small, count: chunks),
                               Array(repeating: big, count: chunks)]
        return MMGCVideo(name: name, sizes: levels, retentionRows: retention + [0])
    }

    static func step(_ delay: Double, _ rebuffer: Double, _ bytes: Int, end: Bool, playing: Int, wasted: Int = 0,
                     challengeWasted: Int? = nil) -> MMGCStep {
        MMGCStep(delayMs: delay, rebufferMs: rebuffer, chunkBytes: bytes, endOfVideo: end, playing: playing,
                 challengeWastedBytes: challengeWasted ?? wasted, wastedBytes: wasted)
    }

    @Test func thePlayLoopStallsStartsSwipesAndDropsWhatIsPastTheSwipe() {
        // A is watched for 1.5 s of its 3 chunks, B to its end (2 chunks).
        var session = MMGCSession(videos: [Self.video("A", chunks: 3), Self.video("B", chunks: 2)],
                                  user: MMGCUser(watchMs: [1500, 2000]), trace: Self.trace)
        // The first chunk's whole download is a stall: nothing plays until its step ends.
        #expect(session.step(.download(video: 0, level: 0)) == Self.step(180, 180, Self.small, end: false, playing: 0))
        // Playing 1200 ms with 1000 buffered: 1000 play, the rest is a stall.
        #expect(session.step(.sleep(ms: 1200)) == Self.step(1200, 200, 0, end: false, playing: 0))
        #expect(session.queue[0].playedMs == 1000 && session.queue[0].bufferMs == 0)
        #expect(session.step(.download(video: 0, level: 0)) == Self.step(180, 180, Self.small, end: false, playing: 0))
        // With a chunk buffered, the next download plays instead of stalling.
        #expect(session.step(.download(video: 0, level: 1)) == Self.step(180, 0, Self.small, end: true, playing: 0))
        #expect(session.queue[0].playedMs == 1180 && session.queue[0].bufferMs == 1820)
        // 320 ms finish A's 1.5 s: the swipe drops chunk 2 (past ceil(1.5)) as waste, and B,
        // with nothing buffered, stalls for the 280 ms left of the step.
        #expect(session.step(.sleep(ms: 600)) == Self.step(600, 280, 0, end: false, playing: 1, wasted: Self.small))
        #expect(session.queue.map(\.index) == [1])
        #expect(session.step(.download(video: 1, level: 0)) == Self.step(180, 180, Self.small, end: false, playing: 1))
        #expect(session.step(.download(video: 1, level: 0)) == Self.step(180, 0, Self.small, end: true, playing: 1))
        // A sleep's fraction of a millisecond is dropped, as the challenge truncates it.
        #expect(session.step(.sleep(ms: 1820.9)) == Self.step(1820, 0, 0, end: true, playing: 2))
        #expect(session.isFinished)
        #expect(session.downloadedMs == 5000 && session.watchedMs == 3500)
    }

    @Test func aChunkArrivingAfterItsVideoWasSwipedIsWastedAndTheChallengeCountsItTwice() {
        // A is watched for 1.5 s; its third chunk at level 2 is 950,000 bytes (1080 ms).
        var session = MMGCSession(videos: [Self.video("A", chunks: 3, big: 950_000), Self.video("B", chunks: 2)],
                                  user: MMGCUser(watchMs: [1500, 2000]), trace: Self.trace)
        _ = session.step(.download(video: 0, level: 0))
        _ = session.step(.sleep(ms: 1000))
        _ = session.step(.download(video: 0, level: 0))
        #expect(session.queue[0].playedMs == 1000 && session.queue[0].bufferMs == 1000)
        // 500 ms of A are left: the 1080 ms download swipes A 500 ms in (its chunk 2 is past the
        // swipe point), B stalls for the other 580, and the chunk arrives for a video gone.
        let step = session.step(.download(video: 0, level: 2))
        #expect(step == Self.step(1080, 580, 950_000, end: true, playing: 1, wasted: 950_000, challengeWasted: 1_900_000))
        #expect(session.queue.map(\.index) == [1] && session.queue[0].downloaded == 0)
    }

    @Test func theQueueHoldsFiveVideosAndTakesTheNextAtEachSwipe() {
        let videos = (0..<7).map { Self.video("v\($0)", chunks: 1) }
        var session = MMGCSession(videos: videos, user: MMGCUser(watchMs: Array(repeating: 1000, count: 7)), trace: Self.trace)
        #expect(session.queue.map(\.index) == [0, 1, 2, 3, 4])
        #expect(session.watchedMs == 5000)
        _ = session.step(.download(video: 0, level: 0))
        _ = session.step(.download(video: 1, level: 0))
        // 1000 ms: video 0 plays to its end (180 of it already), video 1 plays 180 ms.
        _ = session.step(.sleep(ms: 1000))
        #expect(session.playing == 1 && session.queue.map(\.index) == [1, 2, 3, 4, 5] && session.watchedMs == 6000)
        #expect(throws: (any Error).self) { try session.check(.download(video: 0, level: 0)) }
        #expect(throws: (any Error).self) { try session.check(.download(video: 6, level: 0)) }
        #expect(throws: (any Error).self) { try session.check(.download(video: 1, level: 3)) }
        #expect(throws: (any Error).self) { try session.check(.download(video: 1, level: 0)) }
        #expect(throws: Never.self) { try session.check(.download(video: 5, level: 2)) }
    }

    @Test func theScoreChargesAFirstChunkDecidedEarlyItsFullBitrateAndRemembersAcrossTraces() {
        let videos = [Self.video("A", chunks: 3), Self.video("B", chunks: 2)]
        let user = MMGCUser(watchMs: [1500, 2000])
        var memory = MMGCSmoothnessMemory(videos: 2)
        var session = MMGCSession(videos: videos, user: user, trace: Self.trace)
        func decide(_ video: Int, _ level: Int) -> (quality: Double, change: Double) {
            let terms = MMGCScorer.terms(.download(video: video, level: level), in: session, memory: &memory)
            _ = session.step(.download(video: video, level: level))
            return terms
        }
        #expect(decide(0, 2) == (1850, 0))
        // B's first chunk before A's last scored one (chunk 1): nothing recorded for A yet.
        #expect(decide(1, 0) == (750, 0))
        // A's last scored chunk: same level as A's chunk 0, but B's first chunk is charged in full.
        #expect(decide(0, 2) == (1850, 750))
        #expect(memory.levels == [2, -1])
        // Past the watched point: nothing earned, nothing changed.
        #expect(decide(0, 0) == (0, 0))
        #expect(MMGCScorer.terms(.sleep(ms: 500), in: session, memory: &memory) == (0, 0))

        // The next trace of the set starts with A's level remembered: B's first chunk is compared with it.
        session = MMGCSession(videos: videos, user: user, trace: Self.trace)
        #expect(decide(0, 0) == (750, 0))
        #expect(decide(1, 0) == (750, 1100))
        // A's chunk 1 is then compared with A's chunk 0, and B's first chunk charged in full.
        #expect(decide(0, 1) == (1200, 450 + 750))
    }

    @Test func aStepsQoEAndTheScoreFollowTheChallengesFormula() {
        #expect(abs(MMGCScorer.stepQoE(quality: 1850, rebufferMs: 1000, change: 650) - (1.85 - 1.85 - 0.65)) < 1e-12)
        // 0.5 per Mbit: 1,000,000 bytes are 8 Mbit.
        #expect(MMGCScorer.score(qoe: 10, bytes: 1_000_000) == 6)
    }
}
