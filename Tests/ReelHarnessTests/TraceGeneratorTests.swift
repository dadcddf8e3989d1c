import ReelCore
import ReelFeed
import ReelHarness
import Testing

/// `reel trace generate`: traces that parse, stay inside the feed, name real cards and carousels,
/// and are the same for the same seed.
@Suite("Trace generator")
struct TraceGeneratorTests {
    static func build() throws -> FeedBuild {
        let config = try Fixtures.config()
        return FeedBuild(api: FeedAPI(catalog: try Fixtures.catalog144(), config: config), config: config,
                         screen: Size(width: 390, height: 844))
    }

    @Test(arguments: TracePattern.allCases)
    func tracesParseBackAndStayInsideTheFeed(pattern: TracePattern) throws {
        let build = try Self.build()
        let trace = TraceGenerator.generate(pattern, seconds: 60, build: build, seed: 3)
        #expect(trace.samples.count > 20)
        #expect(trace.samples.last?.time == 60, "the trace lasts the seconds asked for")
        let reparsed = try ScrollTrace.parse(trace.jsonLines)
        #expect(reparsed.samples.map(\.time) == trace.samples.map(\.time))
        #expect(reparsed.samples.map(\.y) == trace.samples.map(\.y))
        #expect(reparsed.samples.map(\.tap) == trace.samples.map(\.tap))
        let maxY = build.layout.contentHeight - build.layout.viewport.height
        for sample in trace.samples {
            #expect(sample.y >= 0 && sample.y <= maxY + 0.001, "y \(sample.y) outside 0...\(maxY)")
            if let tap = sample.tap { #expect(build.model.card(id: tap) != nil, "tap of unknown card \(tap)") }
            for (id, x) in sample.x {
                let widget = try #require(build.model.index(ofWidget: id))
                #expect(build.layout.types[widget] == .carousel)
                #expect(x >= 0 && x <= build.layout.maxCarouselOffset(widget: widget) + 0.001)
            }
        }
    }

    @Test func theSameSeedGivesTheSameTraceAndAnotherSeedAnother() throws {
        let build = try Self.build()
        let a = TraceGenerator.generate(.mixed, seconds: 30, build: build, seed: 9).jsonLines
        #expect(a == TraceGenerator.generate(.mixed, seconds: 30, build: build, seed: 9).jsonLines)
        #expect(a != TraceGenerator.generate(.mixed, seconds: 30, build: build, seed: 10).jsonLines)
    }

    @Test func patternsDifferInTheWayTheyMove() throws {
        let build = try Self.build()
        func distance(_ pattern: TracePattern) -> Double {
            let samples = TraceGenerator.generate(pattern, seconds: 60, build: build, seed: 5).samples
            return zip(samples, samples.dropFirst()).reduce(0) { $0 + abs($1.1.y - $1.0.y) }
        }
        #expect(distance(.fling) > 3 * distance(.browse), "a fling session covers far more of the feed")
        let carousel = TraceGenerator.generate(.carousel, seconds: 60, build: build, seed: 5).samples
        #expect(carousel.contains { !$0.x.isEmpty }, "the carousel pattern swipes")
        let mixed = TraceGenerator.generate(.mixed, seconds: 120, build: build, seed: 5).samples
        #expect(mixed.contains { $0.tap != nil }, "the mixed pattern taps")
    }

    /// Lean-back viewing holds still long enough for shorts to play to their end, and moves one
    /// widget at a time.
    @Test func aWatchSessionWatchesVideosThrough() throws {
        let build = try Self.build()
        func stills(_ pattern: TracePattern) -> [Double] {
            let samples = TraceGenerator.generate(pattern, seconds: 120, build: build, seed: 4).samples
            return zip(samples, samples.dropFirst()).filter { $0.0.y == $0.1.y && $0.1.x.isEmpty }.map { $0.1.time - $0.0.time }
        }
        let watch = stills(.watch), browse = stills(.browse)
        let long = watch.filter { $0 >= 8 }
        #expect(long.count >= 5, "rests of 8 s and more: \(watch)")
        let watchMean = watch.reduce(0, +) / Double(watch.count)
        let browseMean = browse.reduce(0, +) / Double(browse.count)
        #expect(watchMean > browseMean)
        // Each scroll goes to the next widget: the widgets rested on run 0, 1, 2, ...
        let samples = TraceGenerator.generate(.watch, seconds: 120, build: build, seed: 4).samples
        var rested: [Int] = []
        for (a, b) in zip(samples, samples.dropFirst()) where a.y == b.y {
            let widget = build.layout.firstWidget(below: b.y + 1)
            if rested.last != widget { rested.append(widget) }
        }
        #expect(rested.count >= 8)
        #expect(rested == Array(0..<rested.count), "widgets rested on: \(rested)")
    }

    @Test func anEmptyFeedGivesAnEmptySession() throws {
        let config = try Fixtures.config()
        let build = FeedBuild(api: FeedAPI(catalog: try FeedCatalog.parse("[]"), config: config), config: config)
        let trace = TraceGenerator.generate(.browse, seconds: 10, build: build, seed: 1)
        #expect(trace.samples.count == 1)
    }
}
