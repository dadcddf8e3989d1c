import Foundation
import ReelCore
import Testing

@testable import ReelManifest

/// DASH parsing: BaseURL composition, template identifiers and widths, timelines with repeats,
/// SegmentList, SegmentBase, multi-period concatenation and malformed MPDs.
@Suite struct ManifestDASHParserTests {
    static let url = URL(string: "https://cdn.example.com/shows/ep1/manifest.mpd?auth=xyz")!

    static func parse(_ xml: String) throws -> DASHManifest {
        try DASHManifestParser.parse(Data(xml.utf8), url: url)
    }

    static func rejection(_ xml: String) -> ReelError? {
        #expect(throws: ReelError.self) { try DASHManifestParser.parse(Data(xml.utf8), url: url) }
    }

    @Test func templateIdentifiersWidthsAndBaseURLChain() throws {
        let manifest = try Self.parse(
            """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT10S">
              <BaseURL>media/</BaseURL>
              <Period>
                <BaseURL>p1/</BaseURL>
                <SegmentTemplate timescale="1000" duration="4000" startNumber="7"
                  media="$RepresentationID$/seg-$Number%05d$-$Bandwidth$-$$.m4s" initialization="$RepresentationID$/init.mp4"/>
                <AdaptationSet contentType="video" codecs="avc1.64001f" width="1080" height="1920">
                  <BaseURL>video/</BaseURL>
                  <Representation id="v1" bandwidth="800000">
                    <BaseURL>../v1base/</BaseURL>
                  </Representation>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        #expect(manifest.renditions.count == 1)
        let video = try #require(manifest.renditions.first)
        #expect(video.id == "v1" && video.type == .video && video.bandwidth == 800_000)
        #expect(video.codecs == "avc1.64001f")
        #expect(video.resolution == Resolution(width: 1080, height: 1920))
        #expect(video.url.absoluteString == "https://cdn.example.com/shows/ep1/media/p1/v1base/")
        #expect(
            video.segments.map(\.resolvedURL.absoluteString) == [
                "https://cdn.example.com/shows/ep1/media/p1/v1base/v1/seg-00007-800000-$.m4s",
                "https://cdn.example.com/shows/ep1/media/p1/v1base/v1/seg-00008-800000-$.m4s",
                "https://cdn.example.com/shows/ep1/media/p1/v1base/v1/seg-00009-800000-$.m4s",
            ])
        // 10 s of 4 s segments: the last one is cut at the period end.
        #expect(video.segments.map(\.duration) == [4, 4, 2])
        #expect(video.initSection?.resolvedURL.absoluteString == "https://cdn.example.com/shows/ep1/media/p1/v1base/v1/init.mp4")
        #expect(video.playlist.targetDuration == 4)
        #expect(video.playlist.endList && video.playlist.playlistType == .vod)
    }

    @Test func timelineWithTimeAndRepeatToPeriodEnd() throws {
        let manifest = try Self.parse(
            """
            <MPD type="static" mediaPresentationDuration="PT9S">
              <Period>
                <AdaptationSet mimeType="audio/mp4" lang="en">
                  <SegmentTemplate timescale="10" presentationTimeOffset="100" media="a/$Time$.m4s">
                    <SegmentTimeline>
                      <S t="100" d="20" r="1"/>
                      <S d="10" r="-1"/>
                    </SegmentTimeline>
                  </SegmentTemplate>
                  <Representation id="a" bandwidth="64000" codecs="mp4a.40.2"/>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        let audio = try #require(manifest.renditions.first)
        #expect(audio.type == .audio && audio.language == "en")
        // 2 x 2 s, then 1 s segments up to media time 100 + 9 s * 10 = 190.
        #expect(audio.segments.map(\.uri) == ["a/100.m4s", "a/120.m4s", "a/140.m4s", "a/150.m4s", "a/160.m4s", "a/170.m4s", "a/180.m4s"])
        #expect(audio.segments.map(\.duration) == [2, 2, 1, 1, 1, 1, 1])
    }

    @Test func repeatUntilNextExplicitTime() throws {
        let manifest = try Self.parse(
            """
            <MPD type="static" mediaPresentationDuration="PT100S"><Period><AdaptationSet contentType="video">
              <SegmentTemplate media="$Time$" timescale="1"><SegmentTimeline>
                <S t="0" d="2" r="-1"/><S t="6" d="3"/>
              </SegmentTimeline></SegmentTemplate>
              <Representation id="v" bandwidth="1"/>
            </AdaptationSet></Period></MPD>
            """)
        #expect(manifest.renditions[0].segments.map(\.uri) == ["0", "2", "4", "6"])
    }

    @Test func segmentListWithRangesAndInitialization() throws {
        let manifest = try Self.parse(
            """
            <MPD type="static" mediaPresentationDuration="PT4S">
              <BaseURL>https://media.example.com/file.mp4</BaseURL>
              <Period>
                <AdaptationSet mimeType="video/mp4">
                  <Representation id="r" bandwidth="100" width="640" height="360">
                    <SegmentList timescale="1" duration="2">
                      <Initialization range="0-99"/>
                      <SegmentURL mediaRange="100-199"/>
                      <SegmentURL media="other.mp4" mediaRange="200-299"/>
                    </SegmentList>
                  </Representation>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        let rendition = try #require(manifest.renditions.first)
        #expect(rendition.segments.map(\.resolvedURL.absoluteString) == ["https://media.example.com/file.mp4", "https://media.example.com/other.mp4"])
        #expect(rendition.segments.map(\.byteRange) == [ByteRange(offset: 100, length: 100), ByteRange(offset: 200, length: 100)])
        #expect(rendition.initSection?.resolvedURL.absoluteString == "https://media.example.com/file.mp4")
        #expect(rendition.initSection?.byteRange == ByteRange(offset: 0, length: 100))
    }

    @Test func segmentBaseIsOneSegmentCoveringTheResource() throws {
        let manifest = try Self.parse(
            """
            <MPD type="static" mediaPresentationDuration="PT1M0.5S">
              <Period><AdaptationSet contentType="audio">
                <Representation id="a" bandwidth="128000" codecs="mp4a.40.2">
                  <BaseURL>audio.mp4</BaseURL>
                  <SegmentBase indexRange="786-1009" timescale="48000"><Initialization range="0-785"/></SegmentBase>
                </Representation>
              </AdaptationSet></Period>
            </MPD>
            """)
        let audio = try #require(manifest.renditions.first)
        #expect(audio.segments.count == 1)
        #expect(audio.segments[0].resolvedURL.absoluteString == "https://cdn.example.com/shows/ep1/audio.mp4")
        #expect(audio.segments[0].byteRange == nil)
        #expect(audio.segments[0].duration == 60.5)
        #expect(audio.initSection?.byteRange == ByteRange(offset: 0, length: 786))
        #expect(manifest.duration == 60.5)
    }

    @Test func inheritanceMergesAttributesAcrossLevels() throws {
        // The timescale comes from the Period, the media template from the AdaptationSet, the
        // duration and start number from the Representation.
        let manifest = try Self.parse(
            """
            <MPD type="static" mediaPresentationDuration="PT6S"><Period>
              <SegmentTemplate timescale="100"/>
              <AdaptationSet contentType="video">
                <SegmentTemplate media="s$Number$.m4s"/>
                <Representation id="v" bandwidth="5"><SegmentTemplate duration="300" startNumber="0"/></Representation>
              </AdaptationSet>
            </Period></MPD>
            """)
        #expect(manifest.renditions[0].segments.map(\.uri) == ["s0.m4s", "s1.m4s"])
        #expect(manifest.renditions[0].segments.map(\.duration) == [3, 3])
    }

    @Test func multiPeriodConcatenatesPerRepresentationWithDiscontinuities() throws {
        let manifest = try Self.parse(
            """
            <MPD type="static" mediaPresentationDuration="PT8S">
              <Period id="a" duration="PT4S"><AdaptationSet contentType="video">
                <SegmentTemplate media="p1-$RepresentationID$-$Number$" initialization="p1-init" timescale="1" duration="2"/>
                <Representation id="hi" bandwidth="2000"/><Representation id="lo" bandwidth="1000"/>
              </AdaptationSet></Period>
              <Period id="b"><AdaptationSet contentType="video">
                <SegmentTemplate media="p2-$RepresentationID$-$Number$" initialization="p2-init" timescale="1" duration="2"/>
                <Representation id="lo" bandwidth="1000"/><Representation id="hi" bandwidth="2000"/>
              </AdaptationSet></Period>
            </MPD>
            """)
        #expect(manifest.periodCount == 2)
        #expect(manifest.renditions.map(\.id) == ["hi", "lo"])
        let high = manifest.renditions[0]
        #expect(high.segments.map(\.uri) == ["p1-hi-1", "p1-hi-2", "p2-hi-1", "p2-hi-2"])
        #expect(high.segments.map(\.discontinuity) == [false, false, true, false])
        #expect(high.segments.map(\.sequenceNumber) == [0, 1, 2, 3])
        #expect(high.segments.map { $0.initSection?.uri } == ["p1-init", "p1-init", "p2-init", "p2-init"])
    }

    @Test func sameIdInTwoLanguagesStaysApart() throws {
        let manifest = try Self.parse(
            """
            <MPD type="static" mediaPresentationDuration="PT2S"><Period>
              <AdaptationSet contentType="audio" lang="en"><Representation id="a" bandwidth="1"><BaseURL>en.mp4</BaseURL></Representation></AdaptationSet>
              <AdaptationSet contentType="audio" lang="es"><Representation id="a" bandwidth="1"><BaseURL>es.mp4</BaseURL></Representation></AdaptationSet>
              <AdaptationSet contentType="image"><Representation id="thumbs" bandwidth="1"/></AdaptationSet>
            </Period></MPD>
            """)
        #expect(manifest.renditions.map(\.language) == ["en", "es"])
        #expect(manifest.renditions.map { $0.segments.first?.uri } == ["https://cdn.example.com/shows/ep1/en.mp4", "https://cdn.example.com/shows/ep1/es.mp4"])
        #expect(manifest.warnings.contains { $0.message.contains("thumbs") })
    }

    @Test func templateFill() {
        let template = DASHTemplate(representationID: "rep 1", bandwidth: 1500)
        #expect(template.fill("$RepresentationID$/$Number%03d$.m4s", number: 5) == "rep 1/005.m4s")
        #expect(template.fill("$Time%08d$", time: 1234) == "00001234")
        #expect(template.fill("$Number%d$-$Bandwidth$", number: 12) == "12-1500")
        #expect(template.fill("cost$$-$Unknown$-$Number$", number: nil) == "cost$-$Unknown$-$Number$")
        #expect(template.fill("trailing$Number") == "trailing$Number")
        #expect(template.fill("$Number%05x$", number: 3) == "$Number%05x$")
    }

    @Test func isoDurations() {
        #expect(ISO8601Duration.seconds("PT6S") == 6)
        #expect(ISO8601Duration.seconds("PT5.972633333S") == 5.972633333)
        #expect(ISO8601Duration.seconds("P0Y0M0DT0H0M16S") == 16)
        #expect(ISO8601Duration.seconds("PT1H2M3.5S") == 3723.5)
        #expect(ISO8601Duration.seconds("P1D") == 86_400)
        #expect(ISO8601Duration.seconds("PT") == nil)
        #expect(ISO8601Duration.seconds("6S") == nil)
        #expect(ISO8601Duration.seconds("PTxS") == nil)
    }

    @Test func malformedMPDsAreRejectedWithLineAndCause() {
        let cases: [(String, String)] = [
            ("<MPD><Period><AdaptationSet></Period></MPD>", "not well-formed XML"),
            ("<MPD><Period>", "not well-formed XML"),
            ("<MPD><Period><AdaptationSet contentType=\"video\"><Representation bandwidth=\"1\"/></AdaptationSet></Period></MPD>", "has no @id"),
            ("<MPD><Period><AdaptationSet contentType=\"video\"><Representation id=\"v\"/></AdaptationSet></Period></MPD>", "has no @bandwidth"),
            ("<MPD><Period><AdaptationSet contentType=\"video\"><Representation id=\"v\" bandwidth=\"x\"/></AdaptationSet></Period></MPD>", "@bandwidth 'x' is not an integer"),
            ("<MPD mediaPresentationDuration=\"soon\"/>", "is not an ISO 8601 duration"),
            ("<MPD mediaPresentationDuration=\"PT1S\"><Period><AdaptationSet contentType=\"video\"><SegmentTemplate media=\"m\"><SegmentTimeline><S t=\"0\"/></SegmentTimeline></SegmentTemplate><Representation id=\"v\" bandwidth=\"1\"/></AdaptationSet></Period></MPD>", "S element has no @d"),
            ("<MPD mediaPresentationDuration=\"PT1S\"><Period><AdaptationSet contentType=\"video\"><SegmentTemplate initialization=\"i\"/><Representation id=\"v\" bandwidth=\"1\"/></AdaptationSet></Period></MPD>", "SegmentTemplate has no @media"),
            ("<MPD mediaPresentationDuration=\"PT1S\"><Period><AdaptationSet contentType=\"video\"><SegmentTemplate media=\"m\" timescale=\"0\"/><Representation id=\"v\" bandwidth=\"1\"/></AdaptationSet></Period></MPD>", "@timescale '0' is not positive"),
            ("<MPD mediaPresentationDuration=\"PT1S\"><Period><AdaptationSet contentType=\"video\"><SegmentList><SegmentURL media=\"a\"/><SegmentURL media=\"b\"/></SegmentList><Representation id=\"v\" bandwidth=\"1\"/></AdaptationSet></Period></MPD>", "neither @duration nor a SegmentTimeline"),
            ("<MPD mediaPresentationDuration=\"PT1S\"><Period><AdaptationSet contentType=\"video\"><SegmentList duration=\"1\"><SegmentURL mediaRange=\"9-1\"/></SegmentList><Representation id=\"v\" bandwidth=\"1\"/></AdaptationSet></Period></MPD>", "is not a byte range"),
            ("<html><body>no</body></html>", "the root element is <html>, not <MPD>"),
        ]
        for (xml, mention) in cases {
            let error = Self.rejection(xml)
            #expect(error?.code == .malformedManifest)
            #expect(error?.message.contains(mention) == true, "\(xml): \(error?.message ?? "")")
            #expect(error?.message.contains("manifest.mpd?auth=xyz line ") == true, "\(error?.message ?? "")")
        }
    }

    @Test func hugeRepeatCountsAreRefused() {
        let xml = """
            <MPD mediaPresentationDuration="PT1S"><Period><AdaptationSet contentType="video">
            <SegmentTemplate media="m$Number$"><SegmentTimeline><S d="1" r="999999999999"/></SegmentTimeline></SegmentTemplate>
            <Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        #expect(Self.rejection(xml)?.message.contains("line 2: S@r 999999999999 is more than 100000 repeats (manifest.maxTimelineRepeat)") == true)
        let tiny = """
            <MPD mediaPresentationDuration="P10000D"><Period><AdaptationSet contentType="video">
            <SegmentTemplate media="m$Number$" duration="1" timescale="1000"/>
            <Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        #expect(Self.rejection(tiny)?.message.contains("line 2: @duration 1 makes Representation 'v' longer than 100000 segments (manifest.maxSegments)") == true)
    }

    @Test func liveTemplateWithoutClockListsNothingAndSaysSo() throws {
        let manifest = try Self.parse(
            """
            <MPD type="dynamic" availabilityStartTime="2021-03-18T20:00:36Z"><Period start="PT0S">
            <AdaptationSet contentType="video"><SegmentTemplate media="m$Number$" duration="2"/>
            <Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """)
        #expect(manifest.isDynamic)
        #expect(manifest.renditions[0].segments.isEmpty)
        #expect(!manifest.renditions[0].playlist.endList)
        #expect(manifest.warnings.contains { $0.message.contains("needs a clock") })
    }
}
