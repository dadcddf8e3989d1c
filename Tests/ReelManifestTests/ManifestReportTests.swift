import Foundation
import ReelCore
import Testing

@testable import ReelManifest

/// ManifestReport: the JSON shape `reel inspect --json` prints (nulls written, not omitted) and
/// the plain-text table.
@Suite struct ManifestReportTests {
    static let url = URL(string: "https://cdn.example.com/v/index.m3u8")!

    static func json(_ report: ManifestReport) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try report.jsonData()) as? [String: Any])
    }

    @Test func mediaPlaylistShapeWithNulls() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:3
            #EXTINF:6,
            plain.ts
            #EXT-X-KEY:METHOD=AES-128,URI="k"
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="10@0"
            #EXT-X-DISCONTINUITY
            #EXTINF:4,
            #EXT-X-BYTERANGE:100@10
            both.mp4
            """
        let manifest = try HLSPlaylistParser.parse(Data(text.utf8), url: Self.url)
        let report = ManifestReport(manifest)
        let object = try Self.json(report)
        #expect(Set(object.keys) == ["type", "variants", "renditions"])
        #expect(object["type"] as? String == "hls-media")
        #expect((object["variants"] as? [Any])?.isEmpty == true)
        let renditions = try #require(object["renditions"] as? [[String: Any]])
        #expect(renditions.count == 1)
        #expect(Set(renditions[0].keys) == ["id", "type", "resolvedURI", "segments"])
        #expect(renditions[0]["type"] as? String == "video")
        #expect(renditions[0]["resolvedURI"] as? String == Self.url.absoluteString)
        let segments = try #require(renditions[0]["segments"] as? [[String: Any]])
        let keys: Set = ["uri", "resolvedURI", "duration", "byteRange", "key", "map", "discontinuity"]
        #expect(segments.allSatisfy { Set($0.keys) == keys })
        #expect(segments[0]["byteRange"] is NSNull)
        #expect(segments[0]["key"] is NSNull)
        #expect(segments[0]["map"] is NSNull)
        #expect(segments[0]["discontinuity"] as? Bool == false)
        let range = try #require(segments[1]["byteRange"] as? [String: Any])
        #expect(range["offset"] as? Int == 10 && range["length"] as? Int == 100)
        let key = try #require(segments[1]["key"] as? [String: Any])
        #expect(Set(key.keys) == ["method", "uri", "iv"])
        #expect(key["method"] as? String == "AES-128" && key["uri"] as? String == "k")
        #expect(key["iv"] as? String == "0x00000000000000000000000000000004")  // Sequence number 4.
        let map = try #require(segments[1]["map"] as? [String: Any])
        #expect(Set(map.keys) == ["uri", "resolvedURI", "byteRange"])
        #expect(map["resolvedURI"] as? String == "https://cdn.example.com/v/init.mp4")
        #expect(segments[1]["discontinuity"] as? Bool == true)
        #expect(segments[1]["resolvedURI"] as? String == "https://cdn.example.com/v/both.mp4")
        // The JSON decodes back to the same report.
        #expect(try JSONDecoder().decode(ManifestReport.self, from: try report.jsonData()) == report)
    }

    @Test func masterVariantsAndNullFields() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=540x960,CODECS="avc1.64001f",AUDIO="a"
            hi.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=100000
            lo.m3u8
            """
        let object = try Self.json(ManifestReport(try HLSPlaylistParser.parse(Data(text.utf8), url: Self.url)))
        #expect(object["type"] as? String == "hls-master")
        #expect((object["renditions"] as? [Any])?.isEmpty == true)
        let variants = try #require(object["variants"] as? [[String: Any]])
        let keys: Set = ["uri", "resolvedURI", "bandwidth", "width", "height", "codecs", "audioGroup"]
        #expect(variants.allSatisfy { Set($0.keys) == keys })
        #expect(variants[0]["width"] as? Int == 540 && variants[0]["height"] as? Int == 960)
        #expect(variants[0]["audioGroup"] as? String == "a")
        #expect(variants[1]["width"] is NSNull && variants[1]["codecs"] is NSNull && variants[1]["audioGroup"] is NSNull)
        #expect(variants[1]["resolvedURI"] as? String == "https://cdn.example.com/v/lo.m3u8")
    }

    @Test func dashListsVideoRepresentationsAsVariants() throws {
        let xml = """
            <MPD mediaPresentationDuration="PT4S"><Period>
            <AdaptationSet contentType="video"><SegmentTemplate media="$RepresentationID$-$Number$.m4s" timescale="1" duration="2"/>
            <Representation id="v1" bandwidth="500" width="540" height="960" codecs="avc1"/></AdaptationSet>
            <AdaptationSet contentType="audio"><Representation id="a1" bandwidth="64"><BaseURL>a.mp4</BaseURL></Representation></AdaptationSet>
            </Period></MPD>
            """
        let manifest = Manifest.dash(try DASHManifestParser.parse(Data(xml.utf8), url: URL(string: "https://d.example/m.mpd")!))
        let report = ManifestReport(manifest)
        #expect(report.type == .dash)
        #expect(report.variants.map(\.uri) == ["v1"])
        #expect(report.variants[0].audioGroup == nil)
        #expect(report.renditions.map(\.id) == ["v1", "a1"])
        #expect(report.renditions.map(\.type) == ["video", "audio"])
        #expect(report.renditions[0].segments.map(\.uri) == ["v1-1.m4s", "v1-2.m4s"])
    }

    @Test func textTable() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=540x960,CODECS="avc1.64001f"
            hi.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=100000
            lo.m3u8
            """
        let rendered = ManifestReport(try HLSPlaylistParser.parse(Data(text.utf8), url: Self.url)).text
        #expect(
            rendered == """
                type: hls-master
                variants: 2
                  #  bandwidth  resolution  codecs       audio  uri
                  0     900000  540x960     avc1.64001f  -      hi.m3u8
                  1     100000  -           -            -      lo.m3u8
                renditions: 0

                """)
        let media = ManifestReport(
            try HLSPlaylistParser.parse(Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n".utf8), url: Self.url))
        let url = Self.url.absoluteString
        #expect(
            media.text == """
                type: hls-media
                renditions: 1
                  id                                    type   segments  seconds  init  key  ranges  url
                  \(url)  video         1    2.000  no    -    no      \(url)

                """)
    }

    /// `reel inspect` prints the summary made from the manifest; it must match the report's.
    @Test func summaryFromTheManifestMatchesTheReport() throws {
        let playlists = [
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=540x960,CODECS=\"avc1.64001f\",AUDIO=\"a\"\nhi.m3u8\n",
            ManifestWriterTests.encryptedFMP4,
            "#EXTM3U\n#EXTINF:2,\n#EXT-X-BYTERANGE:10@0\na.ts\n#EXTINF:1.5,\n#EXT-X-BYTERANGE:10\na.ts\n",
        ]
        for text in playlists {
            let manifest = try HLSPlaylistParser.parse(Data(text.utf8), url: Self.url)
            #expect(ManifestSummary(manifest).text == ManifestReport(manifest).text)
        }
        let dash = try DASHManifestParser.parse(Data(ManifestLoaderTests.mpd.utf8), url: Self.url)
        #expect(ManifestSummary(.dash(dash)).text == ManifestReport(.dash(dash)).text)
    }
}
