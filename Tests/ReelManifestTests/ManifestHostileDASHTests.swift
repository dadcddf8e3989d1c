import Foundation
import ReelCore
import Testing

@testable import ReelManifest

/// MPDs built to exhaust time or memory, or to overflow 64-bit arithmetic: each is refused with
/// an error naming the MPD, the line and the limit or value, or parsed correctly within raised
/// limits. Big inputs are generated here; elapsed times are printed, never asserted.
@Suite struct ManifestHostileDASHTests {
    static let url = URL(string: "https://cdn.example.com/hostile/m.mpd")!

    /// An MPD with one video AdaptationSet of one Representation; `addressing` is its
    /// SegmentTemplate (or list) on line 3.
    static func mpd(_ addressing: String, duration: String = "PT100S") -> String {
        """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="\(duration)">
        <Period><AdaptationSet contentType="video">
        \(addressing)
        <Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
        """
    }

    static func parse(_ xml: String, limits: ManifestLimits = .default) throws -> DASHManifest {
        try DASHManifestParser.parse(Data(xml.utf8), url: url, limits: limits)
    }

    /// The error refusing `xml`, after checking its code and that it names the MPD.
    static func refusal(_ xml: String, limits: ManifestLimits = .default) throws -> ReelError {
        let error = try #require(throws: ReelError.self) { try parse(xml, limits: limits) }
        #expect(error.code == .malformedManifest)
        #expect(error.message.hasPrefix("\(url.absoluteString) line "), "\(error.message)")
        return error
    }

    static func timed<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        defer { print("\(label): \(ContinuousClock.now - start)") }
        return try body()
    }

    @Test func millionRepeatsAreRefusedBeforeAnySegmentIsBuilt() throws {
        // The 348-byte attack: one S element repeated a million times.
        let xml = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT1000000S"><Period><AdaptationSet contentType="video"><SegmentTemplate media="s-$Number$.m4s" timescale="1"><SegmentTimeline><S d="1" r="999999"/></SegmentTimeline></SegmentTemplate><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        let error = try Self.timed("S@r=999999, default limits") { try Self.refusal(xml) }
        #expect(error.message == "\(Self.url.absoluteString) line 2: S@r 999999 is more than 100000 repeats (manifest.maxTimelineRepeat)")

        var limits = ManifestLimits.default
        limits.maxTimelineRepeat = 999_999
        let second = try Self.refusal(xml, limits: limits)
        #expect(second.message.hasSuffix("line 2: the SegmentTimeline makes Representation 'v' longer than 100000 segments (manifest.maxSegments)"))
    }

    /// With the limits raised, a quarter of the million refused above parses in linear time (on
    /// a blocking thread, not the cooperative pool's few; the size keeps a debug build's CPU time
    /// to a few seconds, as the suite runs everything at once on a 2-core machine).
    @Test func manyRepeatsParseWithinRaisedLimits() async throws {
        let xml = Self.mpd(#"<SegmentTemplate media="s-$Number$.m4s"><SegmentTimeline><S d="1" r="249999"/></SegmentTimeline></SegmentTemplate>"#,
                           duration: "PT250000S")
        var limits = ManifestLimits.default
        limits.maxTimelineRepeat = 249_999
        limits.maxSegments = 250_000
        limits.maxTotalSegments = 250_000
        let manifest = try await BlockingPool.shared.run { [limits] in
            try Self.timed("S@r=249999, limits raised: 250,000 segments") { try Self.parse(xml, limits: limits) }
        }
        let segments = try #require(manifest.renditions.first).segments
        #expect(segments.count == 250_000)
        #expect(segments.last?.uri == "s-250000.m4s")
        #expect(segments.last?.resolvedURL.absoluteString == "https://cdn.example.com/hostile/s-250000.m4s")
        #expect(segments.last?.sequenceNumber == 249_999)
    }

    @Test(arguments: [
        (#"<S d="0" r="-1"/>"#, "line 3: S@d '0' is not positive"),
        (#"<S d="0" r="5"/>"#, "line 3: S@d '0' is not positive"),
        (#"<S d="-2" r="-1"/>"#, "line 3: S@d '-2' is not positive"),
        (#"<S t="-5" d="2" r="1"/>"#, "line 3: S@t '-5' is negative"),
    ])
    func timelineEntriesThatNeverAdvanceOrStartBeforeZeroAreRefused(entry: String, mention: String) throws {
        let xml = Self.mpd(#"<SegmentTemplate media="s-$Time$.m4s"><SegmentTimeline>\#(entry)</SegmentTimeline></SegmentTemplate>"#)
        let error = try Self.refusal(xml)
        #expect(error.message.contains(mention), "\(error.message)")
    }

    @Test func numberAtTheTopIsRefusedInsteadOfWrapping() throws {
        let top = "9223372036854775807"
        let two = Self.mpd(#"<SegmentTemplate media="s-$Number$" startNumber="\#(top)" duration="2"/>"#, duration: "PT4S")
        let error = try Self.refusal(two)
        #expect(error.message.hasSuffix("line 3: 2 segments from @startNumber \(top) take $Number$ beyond 2^63-1"), "\(error.message)")

        let timeline = Self.mpd(
            #"<SegmentTemplate media="s-$Number$" startNumber="\#(top)"><SegmentTimeline><S d="2" r="1"/></SegmentTimeline></SegmentTemplate>"#,
            duration: "PT4S")
        #expect(try Self.refusal(timeline).message.contains("take $Number$ beyond 2^63-1"))

        let one = Self.mpd(#"<SegmentTemplate media="s-$Number$" startNumber="\#(top)" duration="4"/>"#, duration: "PT4S")
        #expect(try Self.parse(one).renditions[0].segments.map(\.uri) == ["s-\(top)"])
    }

    @Test func mediaTimeBeyond64BitsIsRefused() throws {
        let timeline = Self.mpd(
            #"<SegmentTemplate media="s-$Time$"><SegmentTimeline><S t="9223372036854775806" d="2" r="1"/></SegmentTimeline></SegmentTemplate>"#)
        let error = try Self.refusal(timeline)
        #expect(error.message.hasSuffix("line 3: the SegmentTimeline reaches beyond media time 2^63-1 (9223372036854775806 + 2 x S@d 2)"), "\(error.message)")

        let offset = Self.mpd(
            #"<SegmentTemplate media="s-$Time$" presentationTimeOffset="9223372036854775807" duration="2"/>"#, duration: "PT4S")
        #expect(try Self.refusal(offset).message.contains("@presentationTimeOffset 9223372036854775807 + 1 x @duration 2 goes beyond $Time$ 2^63-1"))

        let last = Self.mpd(#"<SegmentTemplate media="s-$Time$"><SegmentTimeline><S t="9223372036854775805" d="2"/></SegmentTimeline></SegmentTemplate>"#)
        #expect(try Self.parse(last).renditions[0].segments.map(\.uri) == ["s-9223372036854775805"])
    }

    @Test(arguments: ["startNumber", "presentationTimeOffset"])
    func unsignedAttributesMayNotBeNegative(name: String) throws {
        let xml = Self.mpd(#"<SegmentTemplate media="s-$Number$" \#(name)="-1" duration="2"/>"#)
        #expect(try Self.refusal(xml).message.hasSuffix("line 3: SegmentTemplate@\(name) '-1' is negative"))
    }

    @Test func countsFromDurationsAreCheckedBeforeExpanding() throws {
        // Each would expand to about 10^12 segments.
        let toTheEnd = Self.mpd(#"<SegmentTemplate media="s-$Number$"><SegmentTimeline><S d="1" r="-1"/></SegmentTimeline></SegmentTemplate>"#,
                                duration: "PT1000000000000S")
        #expect(try Self.refusal(toTheEnd).message.contains("S@r=-1 repeats S@d 1 more than 100000 times (manifest.maxTimelineRepeat)"))
        let fill = Self.mpd(#"<SegmentTemplate media="s-$Number$" duration="1"/>"#, duration: "PT1000000000000S")
        #expect(try Self.refusal(fill).message.contains("@duration 1 makes Representation 'v' longer than 100000 segments (manifest.maxSegments)"))
        let list = Self.mpd(#"<SegmentList duration="1"><SegmentURL media="a.m4s"/><SegmentURL media="b.m4s"/></SegmentList>"#,
                            duration: "PT1000000000000S")
        #expect(try Self.parse(list).renditions[0].segments.map(\.uri) == ["a.m4s", "b.m4s"])
    }

    @Test func aRenditionAcrossPeriodsStaysWithinItsLimit() throws {
        let period = #"<Period duration="PT4S"><AdaptationSet contentType="video"><SegmentTemplate media="s-$Number$" duration="2"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period>"#
        let xml = "<MPD type=\"static\">\n" + Array(repeating: period, count: 3).joined(separator: "\n") + "\n</MPD>"
        var limits = ManifestLimits.default
        limits.maxSegments = 5
        let error = try Self.refusal(xml, limits: limits)
        #expect(error.message.hasSuffix("line 4: @duration 2 makes Representation 'v' longer than 5 segments (manifest.maxSegments)"), "\(error.message)")
        limits.maxSegments = 6
        #expect(try Self.parse(xml, limits: limits).renditions[0].segments.count == 6)
    }

    @Test func segmentsOfAllRepresentationsTogetherAreBounded() throws {
        let representations = (0..<3).map { #"<Representation id="r\#($0)" bandwidth="\#($0 + 1)"/>"# }.joined(separator: "\n")
        let xml = """
            <MPD type="static" mediaPresentationDuration="PT8S"><Period><AdaptationSet contentType="video">
            <SegmentTemplate media="$RepresentationID$-$Number$" duration="2"/>
            \(representations)
            </AdaptationSet></Period></MPD>
            """
        var limits = ManifestLimits.default
        limits.maxTotalSegments = 10
        let error = try Self.refusal(xml, limits: limits)
        #expect(error.message.hasSuffix("line 2: @duration 2 makes the MPD longer than 10 segments over all representations (manifest.maxTotalSegments)"), "\(error.message)")
        limits.maxTotalSegments = 12
        #expect(try Self.parse(xml, limits: limits).renditions.map(\.segments.count) == [4, 4, 4])
    }

    static func periods(_ count: Int) -> String {
        var xml = "<MPD type=\"static\">\n"
        xml.reserveCapacity(count * 200)
        for index in 0..<count {
            xml += "<Period duration=\"PT2S\"><AdaptationSet contentType=\"video\"><Representation id=\"v\" bandwidth=\"1\"><BaseURL>v\(index).mp4</BaseURL></Representation></AdaptationSet></Period>\n"
        }
        return xml + "</MPD>\n"
    }

    @Test func fortyThousandPeriodsAreRefusedByTheLimit() async throws {
        // Expectations need the test's task: the thread only parses.
        let refused: ReelError? = try await BlockingPool.shared.run {
            let xml = Self.periods(40_000)
            return Self.timed("40,000 periods, default limits") {
                do { _ = try Self.parse(xml); return nil } catch { return error as? ReelError }
            }
        }
        let error = try #require(refused, "40,000 periods were not refused with a ReelError")
        #expect(error.code == .malformedManifest)
        // Period 1001 is on line 1002.
        #expect(error.message.hasSuffix("line 1002: more than 1000 periods (manifest.maxPeriods)"), "\(error.message)")
    }

    @Test func fortyThousandPeriodsParseInLinearTime() async throws {
        var limits = ManifestLimits.default
        limits.maxPeriods = 40_000
        let manifest = try await BlockingPool.shared.run { [limits] in
            try Self.timed("40,000 periods, limit raised") { try Self.parse(Self.periods(40_000), limits: limits) }
        }
        let segments = try #require(manifest.renditions.first).segments
        #expect(manifest.renditions.count == 1 && manifest.periodCount == 40_000)
        #expect(segments.count == 40_000)
        #expect(segments.last?.uri == "https://cdn.example.com/hostile/v39999.mp4")
        #expect(segments.last?.sequenceNumber == 39_999)
        #expect(segments.dropFirst().allSatisfy(\.discontinuity) && !segments[0].discontinuity)
    }

    @Test func fourHundredThousandAttributesAreRefusedBeforeLibxml2ComparesThem() throws {
        var xml = "<MPD type=\"static\"\n"
        xml.reserveCapacity(5_000_000)
        for index in 0..<400_000 { xml += " a\(index)=\"1\"" }
        xml += "><Period/></MPD>"
        let error = try Self.timed("400,000 attributes") { try Self.refusal(xml) }
        #expect(error.message.hasSuffix("line 1: an element with more than 100 attributes"), "\(error.message)")

        let hundred = "<MPD type=\"static\"" + (0..<99).map { " a\($0)=\"1\"" }.joined() + "><Period/></MPD>"
        #expect(try Self.parse(hundred).periodCount == 1)
    }

    @Test func elementsAreCountedBeforeTheTreeIsBuilt() async throws {
        // Two million S elements: the tree alone took 500 MB before any limit was checked.
        // Seconds of work: on a blocking thread, not the cooperative pool's few.
        let refused: ReelError? = try await BlockingPool.shared.run {
            var xml = #"<MPD type="static" mediaPresentationDuration="PT100S"><Period><AdaptationSet contentType="video"><SegmentTemplate media="$Number$.m4s"><SegmentTimeline>"# + "\n"
            xml += String(repeating: #"<S d="1"/>"#, count: 2_000_000)
            xml += "</SegmentTimeline></SegmentTemplate><Representation id=\"v\" bandwidth=\"1\"/></AdaptationSet></Period></MPD>"
            return Self.timed("2,000,000 S elements") {
                do { _ = try Self.parse(xml); return nil } catch { return error as? ReelError }
            }
        }
        let error = try #require(refused, "2,000,000 S elements were not refused with a ReelError")
        #expect(error.message.hasSuffix("line 2: more than 500000 elements (manifest.maxXMLElements)"), "\(error.message)")

        var limits = ManifestLimits.default
        limits.maxXMLElements = 4
        let small = Self.mpd(#"<SegmentTemplate media="s-$Number$" duration="2"/>"#)
        #expect(try Self.refusal(small, limits: limits).message.hasSuffix("line 4: more than 4 elements (manifest.maxXMLElements)"))
        limits.maxXMLElements = 5
        #expect(try Self.parse(small, limits: limits).renditions.count == 1)
    }

    /// Found by the DASH fuzz target (out of memory): a 7 KB MPD whose BaseURL has no host and
    /// whose template gives 89,590 tiny segments. Each segment's URI was resolved by Foundation
    /// and kept as a URL object (0.6 s, 113 MB in `reel inspect`); the name is now appended to
    /// the directory resolved once.
    @Test func tinySegmentsUnderAnOddBaseURLStayCheap() async throws {
        let xml = """
            <MPD type="static"><BaseURL>https:ww//w.example.com/base</BaseURL><Period duration="PT5.972633333S">
            <AdaptationSet mimeType="audio/mp4"><SegmentTemplate timescale="30000" media="a$Time$">
            <SegmentTimeline><S d="2" r="-1"/></SegmentTimeline></SegmentTemplate>
            <Representation id="a" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        let manifest = try await BlockingPool.shared.run {
            try Self.timed("89,590 segments under a base without a host") { try Self.parse(xml) }
        }
        let segments = try #require(manifest.renditions.first).segments
        #expect(segments.count == 89_590)
        #expect(segments.last?.resolvedString == "https:ww//w.example.com/a179178")
        #expect(segments.allSatisfy { if case .inDirectory = $0.location { true } else { false } })
    }

    /// An empty `@frameRate` split into no parts, and reading the first one trapped.
    @Test(arguments: ["", "/", "/2", "0/1", "1/0", "inf", "nan/1", "2997/100"])
    func frameRatesThatAreNotNumbersAreIgnored(value: String) throws {
        let xml = """
            <MPD type="static" mediaPresentationDuration="PT2S"><Period><AdaptationSet contentType="video" frameRate="\(value)">
            <Representation id="v" bandwidth="1"><BaseURL>v.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>
            """
        let rendition = try #require(try Self.parse(xml).renditions.first)
        #expect(rendition.frameRate == (value == "2997/100" ? 29.97 : nil))
    }

    @Test func aQuotedValueCannotHideMarkupFromTheChecks() throws {
        // A value never closed would swallow the processing instruction that crashes Foundation.
        let xml = "<MPD a=\"1\n<?x?>\n<Period/></MPD>"
        #expect(try Self.refusal(xml).message.hasSuffix("line 2: not well-formed XML: '<' inside an attribute value"))
    }
}
