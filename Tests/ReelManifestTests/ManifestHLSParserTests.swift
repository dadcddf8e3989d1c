import Foundation
import ReelCore
import Testing

@testable import ReelManifest

/// HLS parsing: tags, attribute lists, byte ranges, keys and IVs, maps, URL resolution, master
/// playlists and low-latency tags.
@Suite struct ManifestHLSParserTests {
    static let url = URL(string: "https://cdn.example.com/videos/v1/index.m3u8?token=abc")!

    static func media(_ text: String, url: URL = url) throws -> MediaPlaylist {
        guard case .media(let playlist) = try HLSPlaylistParser.parse(Data(text.utf8), url: url) else {
            throw ReelError(.internalFailure, "not a media playlist")
        }
        return playlist
    }

    static func master(_ text: String) throws -> MasterPlaylist {
        guard case .master(let playlist) = try HLSPlaylistParser.parse(Data(text.utf8), url: url) else {
            throw ReelError(.internalFailure, "not a master playlist")
        }
        return playlist
    }

    static func rejection(_ text: String) -> ReelError? {
        #expect(throws: ReelError.self) { try HLSPlaylistParser.parse(Data(text.utf8), url: url) }
    }

    @Test func mediaPlaylistHeaderAndSegments() throws {
        let playlist = try Self.media(
            """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:42
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXT-X-PLAYLIST-TYPE:EVENT
            #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
            #EXTINF:5.005,first
            seg42.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:4.5,
            ../other/seg43.ts?x=1
            """)
        #expect(playlist.version == 3)
        #expect(playlist.targetDuration == 6)
        #expect(playlist.mediaSequence == 42)
        #expect(playlist.discontinuitySequence == 7)
        #expect(playlist.playlistType == .event)
        #expect(playlist.start == MediaPlaylist.StartOffset(timeOffset: -12.5, precise: true))
        #expect(!playlist.endList)
        #expect(playlist.isLive)
        #expect(playlist.segments.map(\.sequenceNumber) == [42, 43])
        #expect(playlist.segments.map(\.duration) == [5.005, 4.5])
        #expect(playlist.segments.map(\.discontinuity) == [false, true])
        #expect(playlist.segments[0].resolvedURL.absoluteString == "https://cdn.example.com/videos/v1/seg42.ts")
        #expect(playlist.segments[1].uri == "../other/seg43.ts?x=1")
        #expect(playlist.segments[1].resolvedURL.absoluteString == "https://cdn.example.com/videos/other/seg43.ts?x=1")
        #expect(abs(playlist.duration - 9.505) < 1e-9)
    }

    @Test func liveness() throws {
        let vod = try Self.media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:2,\na.ts\n")
        #expect(!vod.isLive)
        let ended = try Self.media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n")
        #expect(!ended.isLive && ended.endList)
        let live = try Self.media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n")
        #expect(live.isLive)
    }

    @Test func crlfAndTrailingWhitespace() throws {
        let playlist = try Self.media("#EXTM3U\r\n#EXT-X-TARGETDURATION:4 \r\n#EXTINF:4,\r\na.ts  \r\n#EXT-X-ENDLIST\r\n")
        #expect(playlist.segments.map(\.uri) == ["a.ts"])
        #expect(playlist.targetDuration == 4)
    }

    @Test func byteRangesWithImplicitOffsets() throws {
        let playlist = try Self.media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            #EXT-X-BYTERANGE:1000@500
            main.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:2000
            main.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:300
            main.ts
            #EXT-X-ENDLIST
            """)
        #expect(
            playlist.segments.map(\.byteRange) == [
                ByteRange(offset: 500, length: 1000), ByteRange(offset: 1500, length: 2000),
                ByteRange(offset: 3500, length: 300),
            ])
        #expect(playlist.warnings.isEmpty)
        let spec = playlist.segments[1].dataSpec
        #expect(spec.offset == 1500 && spec.length == 2000 && spec.kind == .segment)
        #expect(spec.cacheKey == "https://cdn.example.com/videos/v1/main.ts@1500-2000")
    }

    /// FFmpeg's reading of odd ranges: "n@" is offset 0; no offset after a segment of another
    /// URI continues after it; no offset after an unranged segment starts at 0.
    @Test func byteRangeEdgesFollowFFmpeg() throws {
        let playlist = try Self.media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            #EXT-X-BYTERANGE:100@50
            a.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:100@
            a.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:100
            b.ts
            #EXTINF:10,
            whole.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:7
            c.ts
            """)
        #expect(
            playlist.segments.map(\.byteRange) == [
                ByteRange(offset: 50, length: 100), ByteRange(offset: 0, length: 100),
                ByteRange(offset: 100, length: 100), nil, ByteRange(offset: 0, length: 7),
            ])
        #expect(playlist.warnings.compactMap(\.line) == [7, 10, 15])
    }

    @Test func keysAndIVs() throws {
        let playlist = try Self.media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-MEDIA-SEQUENCE:7794
            #EXT-X-KEY:METHOD=AES-128,URI="key.php?r=52,53"
            #EXTINF:10,
            a.ts
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/k2",IV=0x00000000000000000000014BB69D61E4
            #EXTINF:10,
            b.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:10,
            c.ts
            """)
        let first = try #require(playlist.segments[0].key)
        #expect(first.method == "AES-128")
        #expect(first.uri == "key.php?r=52,53")
        #expect(first.resolvedURL.absoluteString == "https://cdn.example.com/videos/v1/key.php?r=52,53")
        #expect(first.iv == nil)
        // No IV: the media sequence number, big-endian in 16 bytes (RFC 8216 5.2).
        #expect(Key.hexString(try #require(playlist.segments[0].initializationVector)) == "0x00000000000000000000000000001E72")
        let second = try #require(playlist.segments[1].key)
        #expect(Key.hexString(try #require(second.iv)) == "0x00000000000000000000014BB69D61E4")
        #expect(playlist.segments[1].initializationVector == second.iv)
        #expect(playlist.segments[2].key == nil)
        #expect(first.dataSpec.kind == .key)
    }

    @Test func plainKeyPreferredAmongDRMKeys() throws {
        let playlist = try Self.media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-KEY:METHOD=AES-128,URI="plain.key"
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://drm",KEYFORMAT="com.apple.streamingkeydelivery"
            #EXTINF:10,
            a.ts
            """)
        #expect(playlist.segments[0].key?.uri == "plain.key")
    }

    @Test func mapWithByteRangeAndKey() throws {
        let playlist = try Self.media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x000102030405060708090A0B0C0D0E0F
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXTINF:6,
            #EXT-X-BYTERANGE:5000@720
            main.mp4
            #EXT-X-MAP:URI="init2.mp4"
            #EXTINF:6,
            part2.mp4
            """)
        let map = try #require(playlist.segments[0].initSection)
        #expect(map.uri == "init.mp4")
        #expect(map.byteRange == ByteRange(offset: 0, length: 720))
        #expect(map.key?.uri == "k")
        #expect(map.dataSpec.kind == .initSection && map.dataSpec.length == 720)
        #expect(playlist.segments[1].initSection?.uri == "init2.mp4")
        #expect(playlist.segments[1].initSection?.byteRange == nil)
    }

    @Test func programDateTimeIsCarriedForwardAndBackward() throws {
        let playlist = try Self.media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            a.ts
            #EXT-X-PROGRAM-DATE-TIME:2019-02-14T02:13:36.106Z
            #EXTINF:4,
            b.ts
            #EXTINF:2,
            c.ts
            #EXT-X-PROGRAM-DATE-TIME:2016-06-22T09:20:16.166-04:00
            #EXTINF:2,
            d.ts
            """)
        let times = playlist.segments.map { $0.programDateTime?.timeIntervalSince1970 ?? -1 }
        #expect(abs(times[0] - 1_550_110_412.106) < 1e-3)
        #expect(abs(times[1] - 1_550_110_416.106) < 1e-3)
        #expect(abs(times[2] - 1_550_110_420.106) < 1e-3)
        #expect(abs(times[3] - 1_466_601_616.166) < 1e-3)
    }

    @Test func attributeListsWithQuotedCommas() {
        let attributes = HLSAttributeList(
            #"BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2", RESOLUTION=1280x720,AUDIO="aud,1",NAME="a=b""#)
        #expect(attributes["BANDWIDTH"] == "1280000")
        #expect(attributes["CODECS"] == "avc1.4d401f,mp4a.40.2")
        #expect(attributes["RESOLUTION"] == "1280x720")
        #expect(attributes["AUDIO"] == "aud,1")
        #expect(attributes["NAME"] == "a=b")
        #expect(attributes["MISSING"] == nil)
        // An unterminated quote takes the rest of the line and does not crash.
        #expect(HLSAttributeList(#"URI="abc,DEF=1"#)["URI"] == "abc,DEF=1")
    }

    @Test func masterPlaylist() throws {
        let master = try Self.master(
            """
            #EXTM3U
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Deutsch",LANGUAGE="de",URI="subs/de.m3u8"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,AVERAGE-BANDWIDTH=1500000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2",FRAME-RATE=29.970,AUDIO="aac",SUBTITLES="subs",CLOSED-CAPTIONS="cc"
            720/index.m3u8?sig=1
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=540x960,VIDEO="v",CLOSED-CAPTIONS=NONE
            540/index.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=200000,URI="720/iframes.m3u8"
            """)
        #expect(master.independentSegments)
        #expect(master.variants.count == 2)
        let top = master.variants[0]
        #expect(top.bandwidth == 2_000_000 && top.averageBandwidth == 1_500_000)
        #expect(top.resolution == Resolution(width: 1280, height: 720))
        #expect(top.codecs == "avc1.64001f,mp4a.40.2")
        #expect(top.frameRate == 29.97)
        #expect(top.audioGroup == "aac" && top.subtitlesGroup == "subs" && top.closedCaptionsGroup == "cc")
        #expect(top.resolvedURL.absoluteString == "https://cdn.example.com/videos/v1/720/index.m3u8?sig=1")
        #expect(master.variants[1].videoGroup == "v" && master.variants[1].closedCaptionsGroup == nil)
        #expect(master.iFrameVariants.map(\.uri) == ["720/iframes.m3u8"])
        #expect(master.media.count == 3)
        let audio = master.media(type: .audio, groupID: "aac")
        #expect(audio.first?.isDefault == true && audio.first?.autoselect == true && audio.first?.language == "en")
        #expect(audio.first?.resolvedURL?.absoluteString == "https://cdn.example.com/videos/v1/audio/en.m3u8")
        #expect(master.media(type: .closedCaptions, groupID: "cc").first?.instreamID == "CC1")
        #expect(master.media(type: .closedCaptions, groupID: "cc").first?.uri == nil)
    }

    @Test func lowLatencyTagsParseWithoutParts() throws {
        let playlist = try Self.media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0
            #EXT-X-PART-INF:PART-TARGET=0.33334
            #EXT-X-MEDIA-SEQUENCE:266
            #EXT-X-SKIP:SKIPPED-SEGMENTS=3
            #EXTINF:4.00008,
            fileSequence269.mp4
            #EXT-X-PART:DURATION=0.33334,URI="filePart270.0.mp4",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.33334,URI="filePart270.1.mp4",BYTERANGE=100@0
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="filePart270.2.mp4"
            #EXT-X-RENDITION-REPORT:URI="../1M/waitForMSN.php",LAST-MSN=273,LAST-PART=2
            """)
        #expect(playlist.partTargetDuration == 0.33334)
        #expect(playlist.skippedSegments == 3)
        #expect(playlist.segments.map(\.uri) == ["fileSequence269.mp4"])
        #expect(playlist.segments[0].sequenceNumber == 269)
    }

    @Test func emptyPlaylistIsAnEmptyModelWithAWarning() throws {
        let playlist = try Self.media("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-ENDLIST\n")
        #expect(playlist.segments.isEmpty)
        #expect(playlist.warnings.contains { $0.message.contains("no segments") })
    }

    @Test func unknownTagsAndCommentsAreIgnored() throws {
        let playlist = try Self.media(
            "#EXTM3U\n# a comment\n#EXT-X-FUTURE-TAG:A=1\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n")
        #expect(playlist.segments.count == 1)
        #expect(playlist.warnings.isEmpty)
    }

    @Test func malformedValuesThatDecideBytesAreRejected() {
        let cases: [(String, Int, String)] = [
            ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:abc\na.ts\n", 4, "BYTERANGE"),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:METHOD=AES-128\n", 3, "has no URI"),
            ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:URI=\"k\"\n", 3, "has no METHOD"),
            ("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x1234\n", 2, "32 hex digits"),
            ("#EXTM3U\n#EXT-X-MAP:BYTERANGE=\"1@0\"\n", 2, "#EXT-X-MAP has no URI"),
            ("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\na.m3u8\n", 3, "has no BANDWIDTH"),
            ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n", 2, "has no URI line"),
            ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n", 3, "has no URI line"),
            ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXTINF:4,\nb.ts\n", 4, "segment tag in a master"),
            ("#EXTM3U\n#EXTINF:4,\nb.ts\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", 4, "master playlist tag in a media"),
            ("#EXTM3U\n#EXTINF:4,\nb.ts\n#EXT-X-MEDIA-SEQUENCE:3\n", 4, "after the first segment"),
            ("\u{FEFF}#EXTM3U\n", 1, "byte order mark"),
            ("", 1, "empty"),
        ]
        for (text, line, mention) in cases {
            let error = Self.rejection(text)
            #expect(error?.code == .malformedPlaylist)
            #expect(error?.message.contains("line \(line):") == true, "\(text): \(error?.message ?? "")")
            #expect(error?.message.contains(mention) == true, "\(text): \(error?.message ?? "")")
            #expect(error?.message.contains(Self.url.absoluteString) == true)
        }
    }

    /// FFmpeg 5.1 refuses negative and overflowing target durations and reads other junk as 0.
    @Test func targetDurationFollowsFFmpeg() throws {
        func playlist(_ value: String) -> String { "#EXTM3U\n#EXT-X-TARGETDURATION:\(value)\n#EXTINF:3.4,\na.ts\n" }
        for value in ["-10", "-1", "99999999999999999", "99999999999999999999", "9223372036854"] {
            let error = Self.rejection(playlist(value))
            #expect(error?.message.contains("line 2: #EXT-X-TARGETDURATION '\(value)' is out of range") == true, "\(value)")
        }
        for value in ["NaN", "", "abc", "-0", "x-1"] {
            let parsed = try Self.media(playlist(value))
            #expect(parsed.targetDuration == 3, "\(value)")
            #expect(parsed.warnings.first?.line == 2, "\(value)")
        }
        #expect(try Self.media(playlist("9223372036853")).targetDuration == 9_223_372_036_853)
    }

    @Test func durationsAndDatesThatOnlyDescribeAreRecovered() throws {
        let playlist = try Self.media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:yesterday
            #EXTINF:abc,
            a.ts
            #EXT-X-START:TIME-OFFSET=soon
            """)
        #expect(playlist.segments[0].duration == 6)
        #expect(playlist.segments[0].programDateTime == nil)
        #expect(playlist.start == nil)
        #expect(playlist.warnings.compactMap(\.line) == [3, 4, 6])
    }

    @Test func urlsThatNeedEncodingStillResolve() throws {
        let playlist = try Self.media("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nsegment 1.ts\n")
        #expect(playlist.segments[0].resolvedURL.absoluteString == "https://cdn.example.com/videos/v1/segment%201.ts")
    }

    /// The resolver's fast path for plain names gives exactly what Foundation's resolution does.
    @Test func fastResolutionMatchesFoundation() {
        let bases = [
            "https://cdn.example.com/videos/v1/index.m3u8?token=abc#frag", "https://cdn.example.com/index.m3u8",
            "http://a/b", "https://a.example", "file:///tmp/x/y.m3u8", "https://h.example:8443/a/b/",
        ]
        let uris = [
            "seg1.ts", "a/b/c.ts", "seg.ts?x=1&y=2", "v1_720p-00001.m4s", "../up.ts", "./here.ts", "/root.ts",
            "//other.example/x.ts", "https://abs.example/y.ts", "?q=1", "seg%201.ts", "a..b.ts", "a/./b.ts", "x.ts#t=1",
        ]
        for base in bases {
            let baseURL = URL(string: base)!
            var resolver = URLResolver(base: baseURL)
            for uri in uris {
                #expect(resolver.resolve(uri)?.absoluteString == URL(string: uri, relativeTo: baseURL)?.absoluteURL.absoluteString, "\(base) + \(uri)")
            }
        }
    }

    @Test func isoDates() {
        #expect(ISO8601Date.parse("2016-06-22T13:20:16Z")?.timeIntervalSince1970 == 1_466_601_616)
        #expect(ISO8601Date.parse("2016-06-22T15:20:16+0200")?.timeIntervalSince1970 == 1_466_601_616)
        #expect(ISO8601Date.parse("1969-12-31T23:59:59Z")?.timeIntervalSince1970 == -1)
        #expect(ISO8601Date.parse("2016-13-22T13:20:16Z") == nil)
        #expect(ISO8601Date.parse("2016-06-22T13:20:16Zjunk") == nil)
        #expect(ISO8601Date.parse("") == nil)
    }
}
