import Foundation
import ReelCore
import Testing

@testable import ReelManifest

/// HLSPlaylistWriter: exact text, prefixes for offline playback, and parse -> write -> parse
/// round trips.
@Suite struct ManifestWriterTests {
    static let url = URL(string: "https://cdn.example.com/v/index.m3u8")!

    static func media(_ text: String, url: URL = url) throws -> MediaPlaylist {
        guard case .media(let playlist) = try HLSPlaylistParser.parse(Data(text.utf8), url: url) else {
            throw ReelError(.internalFailure, "not a media playlist")
        }
        return playlist
    }

    static let encryptedFMP4 = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:10
        #EXT-X-KEY:METHOD=AES-128,URI="keys/k1"
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
        #EXTINF:6.006,
        #EXT-X-BYTERANGE:5000@720
        main.mp4
        #EXTINF:5.5,
        #EXT-X-BYTERANGE:4000
        main.mp4
        #EXT-X-DISCONTINUITY
        #EXT-X-KEY:METHOD=AES-128,URI="keys/k2",IV=0x000102030405060708090A0B0C0D0E0F
        #EXT-X-MAP:URI="init2.mp4"
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:2,
        tail.mp4?sig=1
        #EXT-X-ENDLIST
        """

    @Test func exactText() throws {
        let text = HLSPlaylistWriter().render(try Self.media(Self.encryptedFMP4))
        #expect(
            text == """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-TARGETDURATION:6
                #EXT-X-MEDIA-SEQUENCE:10
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXT-X-KEY:METHOD=AES-128,URI="https://cdn.example.com/v/keys/k1"
                #EXT-X-MAP:URI="https://cdn.example.com/v/init.mp4",BYTERANGE="720@0"
                #EXTINF:6.006,
                #EXT-X-BYTERANGE:5000@720
                https://cdn.example.com/v/main.mp4
                #EXTINF:5.5,
                #EXT-X-BYTERANGE:4000@5720
                https://cdn.example.com/v/main.mp4
                #EXT-X-DISCONTINUITY
                #EXT-X-KEY:METHOD=AES-128,URI="https://cdn.example.com/v/keys/k2",IV=0x000102030405060708090A0B0C0D0E0F
                #EXT-X-MAP:URI="https://cdn.example.com/v/init2.mp4"
                #EXT-X-KEY:METHOD=NONE
                #EXTINF:2.0,
                https://cdn.example.com/v/tail.mp4?sig=1
                #EXT-X-ENDLIST

                """)
    }

    @Test func prefixForOfflinePlayback() throws {
        let playlist = try Self.media(Self.encryptedFMP4)
        let text = HLSPlaylistWriter().render(playlist, segmentCount: 1, endList: false)
        #expect(text.components(separatedBy: "#EXTINF").count == 2)
        #expect(!text.contains("ENDLIST") && !text.contains("PLAYLIST-TYPE"))
        let closed = HLSPlaylistWriter().render(playlist, segmentCount: 2)
        #expect(closed.hasSuffix("https://cdn.example.com/v/main.mp4\n#EXT-X-ENDLIST\n"))
        let reparsed = try Self.media(closed)
        #expect(reparsed.segments.count == 2 && reparsed.endList)
    }

    @Test func cachedPrefixCountsSegmentsWithTheirInitAndKey() throws {
        let playlist = try Self.media(Self.encryptedFMP4)
        func prefix(_ cached: Set<String>) -> Int {
            HLSPlaylistWriter.cachedPrefixLength(of: playlist) { cached.contains($0.cacheKey) }
        }
        let initKey = "https://cdn.example.com/v/init.mp4@0-720"
        let key1 = "https://cdn.example.com/v/keys/k1"
        let first = "https://cdn.example.com/v/main.mp4@720-5000"
        let second = "https://cdn.example.com/v/main.mp4@5720-4000"
        #expect(prefix([]) == 0)
        #expect(prefix([first, second, key1]) == 0)  // No init section.
        #expect(prefix([initKey, first, second]) == 0)  // No key.
        #expect(prefix([initKey, key1, first]) == 1)
        #expect(prefix([initKey, key1, first, second]) == 2)
        let all: Set = [initKey, key1, first, second, "https://cdn.example.com/v/init2.mp4",
                        "https://cdn.example.com/v/keys/k2", "https://cdn.example.com/v/tail.mp4?sig=1"]
        #expect(prefix(all) == 3)
    }

    @Test func durationsKeepTheirPrecision() {
        #expect(HLSPlaylistWriter.decimal(10) == "10.0")
        #expect(HLSPlaylistWriter.decimal(1.9185833333333333) == "1.9185833333333333")
        #expect(HLSPlaylistWriter.decimal(0.00001) == "0.00001")
        #expect(Double(HLSPlaylistWriter.decimal(0.1 + 0.2)) == 0.1 + 0.2)
    }

    @Test func dashRenditionRendersAsHLS() throws {
        let xml = """
            <MPD mediaPresentationDuration="PT5S"><Period><AdaptationSet contentType="video">
            <SegmentTemplate media="$Number$.m4s" initialization="init.mp4" timescale="1" duration="2"/>
            <Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        let dash = try DASHManifestParser.parse(Data(xml.utf8), url: URL(string: "https://d.example/a/m.mpd")!)
        let text = HLSPlaylistWriter().render(dash.renditions[0])
        #expect(text.contains("#EXT-X-MAP:URI=\"https://d.example/a/init.mp4\""))
        #expect(text.contains("#EXTINF:1.0,\nhttps://d.example/a/3.m4s\n#EXT-X-ENDLIST"))
        #expect(text.contains("#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"))
        let reparsed = try Self.media(text)
        #expect(Self.differences(dash.renditions[0].segments, reparsed.segments).isEmpty)
    }

    @Test func roundTripOfOwnSamples() throws {
        for text in [Self.encryptedFMP4] {
            let original = try Self.media(text)
            let reparsed = try Self.media(HLSPlaylistWriter().render(original), url: URL(string: "https://elsewhere.example/x.m3u8")!)
            #expect(Self.differences(original.segments, reparsed.segments).isEmpty)
            #expect(reparsed.mediaSequence == original.mediaSequence)
        }
    }

    /// Every conformance media playlist Reel accepts survives parse -> write -> parse.
    @Test(
        .enabled(if: ManifestConformanceData.isAvailable, ManifestConformanceData.disabledComment),
        arguments: ManifestConformanceData.hlsCases.filter { $0.kind == "media" })
    func roundTripOfConformancePlaylists(_ testCase: ManifestConformanceData.Case) throws {
        let base = URL(string: "https://conformance.invalid/hls/playlist.m3u8")!
        guard case .media(let original)? = try? HLSPlaylistParser.parse(try testCase.inputData(), url: base) else {
            return  // Rejected by policy; the conformance suite checks how.
        }
        let text = HLSPlaylistWriter().render(original)
        let reparsed = try Self.media(text)
        #expect(Self.differences(original.segments, reparsed.segments).isEmpty, "\(text)")
        #expect(reparsed.warnings.isEmpty, "\(reparsed.warnings)")
    }

    /// Field by field, with URLs compared resolved (the writer makes every URI absolute) and
    /// dates left out (the writer does not write them).
    static func differences(_ lhs: [Segment], _ rhs: [Segment]) -> [String] {
        guard lhs.count == rhs.count else { return ["count \(lhs.count) != \(rhs.count)"] }
        var out: [String] = []
        func keyFacts(_ key: Key?) -> String {
            key.map { "\($0.method) \($0.resolvedURL) \($0.iv.map(Key.hexString) ?? "-") \($0.keyFormat ?? "-")" } ?? "none"
        }
        for (index, (a, b)) in zip(lhs, rhs).enumerated() {
            if a.resolvedURL != b.resolvedURL { out.append("\(index) url \(a.resolvedURL) \(b.resolvedURL)") }
            if a.duration != b.duration { out.append("\(index) duration \(a.duration) \(b.duration)") }
            if a.byteRange != b.byteRange { out.append("\(index) range") }
            if a.discontinuity != b.discontinuity { out.append("\(index) discontinuity") }
            if a.sequenceNumber != b.sequenceNumber { out.append("\(index) sequence \(a.sequenceNumber) \(b.sequenceNumber)") }
            if keyFacts(a.key) != keyFacts(b.key) { out.append("\(index) key \(keyFacts(a.key)) \(keyFacts(b.key))") }
            if a.initializationVector != b.initializationVector { out.append("\(index) iv") }
            if a.initSection?.resolvedURL != b.initSection?.resolvedURL || a.initSection?.byteRange != b.initSection?.byteRange
                || keyFacts(a.initSection?.key) != keyFacts(b.initSection?.key)
            {
                out.append("\(index) map")
            }
        }
        return out
    }
}
