import Foundation
import ReelCore
import Testing

@testable import ReelManifest

/// Input that must never crash the manifest layer: garbage, huge playlists, and random mutations
/// of real samples. Everything either parses or throws a `ReelError`.
@Suite struct ManifestBadInputTests {
    static let url = URL(string: "https://cdn.example.com/bad/input.m3u8")!

    /// A small deterministic generator (SplitMix64), so a failing mutation can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let samples: [String] = [
        ManifestWriterTests.encryptedFMP4,
        """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="a.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=540x960,CODECS="avc1.64001f,mp4a.40.2",AUDIO="a"
        hi.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI="i.m3u8"
        """,
        """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT8S">
          <BaseURL>media/</BaseURL>
          <Period duration="PT4S"><AdaptationSet contentType="video" lang="en">
            <SegmentTemplate media="$RepresentationID$/$Number%04d$.m4s" initialization="$RepresentationID$/i.mp4" timescale="90000">
              <SegmentTimeline><S t="0" d="180000" r="-1"/></SegmentTimeline></SegmentTemplate>
            <Representation id="v" bandwidth="1000" width="540" height="960"/></AdaptationSet></Period>
          <Period><AdaptationSet contentType="video" lang="en"><Representation id="v" bandwidth="1000">
            <SegmentList timescale="1" duration="2"><Initialization sourceURL="i2.mp4" range="0-9"/>
              <SegmentURL media="a.m4s" mediaRange="10-99"/><SegmentURL media="b.m4s"/></SegmentList>
          </Representation></AdaptationSet></Period>
        </MPD>
        """,
    ]

    /// Parses and, when that works, renders and reports; anything thrown must be a ReelError.
    static func exercise(_ data: Data) -> Bool {
        do {
            let manifest = try ManifestLoader.parse(data, url: url)
            for rendition in manifest.renditions { _ = HLSPlaylistWriter().render(rendition) }
            _ = ManifestReport(manifest).text
            _ = VariantSelector.select(in: manifest, constraints: PlaybackConstraints(maxWidth: 540, maxHeight: 960))
            return true
        } catch is ReelError {
            return true
        } catch {
            Issue.record("non-ReelError thrown: \(error)")
            return false
        }
    }

    static func mutate(_ bytes: [UInt8], _ generator: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        let steps = Int.random(in: 1...4, using: &generator)
        let interesting: [[UInt8]] = [
            Array("#EXTINF:".utf8), Array("#EXT-X-BYTERANGE:".utf8), Array("@".utf8), Array("\"".utf8),
            Array(",".utf8), Array("\n".utf8), Array("-1".utf8), Array("99999999999999999999".utf8), Array("$".utf8),
            Array("<".utf8), Array("/>".utf8), Array("r=\"-1\"".utf8), Array("#EXT-X-KEY:METHOD=AES-128".utf8),
            [0x00], [0xFF, 0xFE], Array("#EXT-X-STREAM-INF:".utf8), Array("</Period>".utf8),
        ]
        for _ in 0..<steps {
            guard !out.isEmpty else {
                out = interesting.randomElement(using: &generator)!
                continue
            }
            let position = Int.random(in: 0..<out.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                out[position] = UInt8.random(in: 0...255, using: &generator)
            case 1:
                let end = min(out.count, position + Int.random(in: 1...40, using: &generator))
                out.removeSubrange(position..<end)
            case 2:
                let end = min(out.count, position + Int.random(in: 1...80, using: &generator))
                out.insert(contentsOf: out[position..<end], at: Int.random(in: 0...out.count, using: &generator))
            case 3:
                out.insert(contentsOf: interesting.randomElement(using: &generator)!, at: position)
            case 4:
                out.removeSubrange(position..<out.count)
            default:
                let digit = UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &generator)
                if out[position] >= UInt8(ascii: "0") && out[position] <= UInt8(ascii: "9") { out[position] = digit }
            }
        }
        return out
    }

    @Test func seededMutationsNeverCrash() throws {
        var sources = Self.samples.map { Array($0.utf8) }
        for testCase in ManifestConformanceData.hlsCases + ManifestConformanceData.dashCases {
            if let data = try? testCase.inputData() { sources.append([UInt8](data)) }
        }
        // REEL_FUZZ_SEED and REEL_FUZZ_ITERATIONS run a longer or different search locally.
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["REEL_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026
        let iterations = environment["REEL_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 6000
        var generator = SeededGenerator(state: seed)
        var parsedOrRejected = 0
        for iteration in 0..<iterations {
            let source = sources[iteration % sources.count]
            if Self.exercise(Data(Self.mutate(source, &generator))) { parsedOrRejected += 1 }
        }
        #expect(parsedOrRejected == iterations)
    }

    @Test func garbageAndNearMisses() {
        let inputs: [[UInt8]] = [
            [], Array(" \n".utf8), (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) }, [0xEF, 0xBB, 0xBF],
            Array("#EXTM3U".utf8), Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1".utf8),
            Array("#EXTM3U\n#EXTINF:1,".utf8), Array("#EXTM3U\n#EXT-X-BYTERANGE:1@99999999999999999999\n".utf8),
            Array("#EXTM3U\n#EXTINF:1,\n#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807\na\n".utf8),
            Array("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"\u{0}\"\n#EXTINF:1,\na\n".utf8),
            Array("<MPD".utf8), Array("<MPD/>".utf8), Array("<MPD><Period/></MPD>".utf8),
            Array("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\">]><MPD>&a;&b;</MPD>".utf8),
            Array("<MPD><Period><AdaptationSet><Representation id=\"a\" bandwidth=\"-5\"/></AdaptationSet></Period></MPD>".utf8),
        ]
        for input in inputs { #expect(Self.exercise(Data(input))) }
        // Deep nesting: no recursion in Reel's tree may overflow the stack.
        let deep = "<MPD>" + String(repeating: "<Period>", count: 200_000) + String(repeating: "</Period>", count: 200_000) + "</MPD>"
        #expect(Self.exercise(Data(deep.utf8)))
    }

    /// Inputs the fuzz loop found that crash Foundation's XMLParser on Linux (it force-unwraps
    /// names that are not UTF-8 and passes NULL data of processing instructions and DTD
    /// declarations to strlen); Reel refuses them before parsing.
    static let foundationCrashers: [([UInt8], String)] = {
        var invalidName: [UInt8] = Array("<MPD a=\"1\" ".utf8)
        invalidName.append(0xFF)
        invalidName += Array("d=\"2\"/>".utf8)
        return [
            (invalidName, "line 1: bytes that are not UTF-8 at offset 11"),
            (Array("<?xml version=\"1.0\"?>\n<MPD>\n<?x?></MPD>".utf8), "line 3: a processing instruction"),
            (Array("<?x?>\n<MPD/>".utf8), "line 1: a processing instruction"),
            // Found by the DASH fuzz target: a processing instruction whose target starts with
            // "xml" passed for the XML declaration.
            (Array("<?xmlaudioSamplineRate?>\n<:drsodi".utf8), "line 1: a processing instruction"),
            (Array("<?xml-stylesheet href=\"a.xsl\"?>\n<MPD/>".utf8), "line 1: a processing instruction"),
            // Found by the DASH fuzz target: a declaration never closed, whose '?>' is an instruction's.
            (Array("<?xml version=\"ion>\n\t\t\t<Represutf-8\"<?x?>\nm<".utf8),
             "line 2: not well-formed XML: the XML declaration is not closed before the next '<'"),
            (Array("<!DOCTYPE MPD [<!ATTLIST MPD a CDATA #IMPLIED>]><MPD/>".utf8), "a document type declaration"),
            (Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?><MPD/>".utf8), "declares encoding 'UTF-16'"),
            (Array("<MPD>\u{0}</MPD>".utf8), "a NUL byte at offset 5"),
        ]
    }()

    @Test(arguments: foundationCrashers)
    func xmlThatCrashesFoundationIsRefused(bytes: [UInt8], mention: String) {
        let error = #expect(throws: ReelError.self) {
            try DASHManifestParser.parse(Data(bytes), url: URL(string: "https://d.example/m.mpd")!)
        }
        #expect(error?.code == .malformedManifest)
        #expect(error?.message.contains(mention) == true, "\(error?.message ?? "")")
    }

    @Test func commentsAndCDATAMayHoldMarkupCharacters() throws {
        let xml = """
            <?xml version="1.0"?>
            <!-- <?not a pi?> <!DOCTYPE x> -->
            <MPD mediaPresentationDuration="PT2S"><Period><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="1"><BaseURL><![CDATA[a<?b.mp4]]></BaseURL></Representation>
            </AdaptationSet></Period></MPD>
            """
        let dash = try DASHManifestParser.parse(Data(xml.utf8), url: URL(string: "https://d.example/m.mpd")!)
        #expect(dash.renditions.first?.segments.first?.resolvedURL.absoluteString == "https://d.example/a%3C?b.mp4")
    }

    /// Seconds of parsing in a debug build: on a blocking thread, not the cooperative pool's few.
    @Test func hundredThousandSegmentPlaylist() async throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        text.reserveCapacity(5_000_000)
        text += "#EXT-X-KEY:METHOD=AES-128,URI=\"key\"\n#EXT-X-MAP:URI=\"init.mp4\",BYTERANGE=\"100@0\"\n"
        for index in 0..<100_000 {
            text += "#EXTINF:2.002,\n#EXT-X-BYTERANGE:1000\nmedia-\(index % 7).mp4\n"
        }
        text += "#EXT-X-ENDLIST\n"
        let data = Data(text.utf8)
        let (manifest, elapsed) = try await BlockingPool.shared.run { [data] in
            let clock = ContinuousClock(), start = clock.now
            let manifest = try ManifestLoader.parse(data, url: Self.url)
            return (manifest, clock.now - start)
        }
        let parsed: MediaPlaylist? = if case .media(let playlist) = manifest { playlist } else { nil }
        let playlist = try #require(parsed, "not a media playlist")
        #expect(playlist.segments.count == 100_000)
        #expect(playlist.segments.last?.sequenceNumber == 99_999)
        // Implicit offsets continue after the previous segment, here across URIs (FFmpeg's rule).
        #expect(playlist.segments.last?.byteRange == ByteRange(offset: 99_999 * 1000, length: 1000))
        #expect(playlist.segments.allSatisfy { $0.key?.uri == "key" && $0.initSection?.uri == "init.mp4" })
        let written = HLSPlaylistWriter().render(playlist)
        #expect(written.components(separatedBy: "#EXTINF").count == 100_001)
        print("100,000-segment playlist (\(data.count) bytes): parsed in \(elapsed)")
    }

    @Test func hundredThousandSegmentTimeline() async throws {
        let xml = """
            <MPD mediaPresentationDuration="PT200000S"><Period><AdaptationSet contentType="video">
            <SegmentTemplate media="$Number$.m4s" timescale="1"><SegmentTimeline><S t="0" d="2" r="99999"/></SegmentTimeline></SegmentTemplate>
            <Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        let dash = try await BlockingPool.shared.run { try DASHManifestParser.parse(Data(xml.utf8), url: URL(string: "https://d.example/m.mpd")!) }
        #expect(dash.renditions[0].segments.count == 100_000)
        #expect(dash.renditions[0].segments.last?.uri == "100000.m4s")
    }
}
