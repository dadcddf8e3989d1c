import Foundation
import ReelCore
import Testing

@testable import ReelManifest

/// ManifestLoader over a fake fetch function: content detection, deep loading, loops, the size
/// cap and error passing.
@Suite struct ManifestLoaderTests {
    /// Serves bodies from a table and records every request.
    final class FakeOrigin: Sendable {
        let bodies: [String: Data]
        let requests = Locked<[DataSpec]>([])

        init(_ bodies: [String: String]) {
            self.bodies = bodies.mapValues { Data($0.utf8) }
        }

        init(data: [String: Data]) {
            self.bodies = data
        }

        func fetch(_ spec: DataSpec) throws -> Data {
            requests.withLock { $0.append(spec) }
            guard let body = bodies[spec.url.absoluteString] else {
                throw ReelError(.httpStatus, "HTTP 404 for \(spec.url.absoluteString)")
            }
            return body
        }

        var requestedURLs: [String] { requests.withLock { $0.map(\.url.absoluteString) } }

        func loader(limits: ManifestLimits = .default) -> ManifestLoader {
            ManifestLoader(limits: limits) { try self.fetch($0) }
        }
    }

    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\ns.ts\n#EXT-X-ENDLIST\n"
    static let mpd = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="PT2S"><Period><AdaptationSet contentType="video">
        <Representation id="v" bandwidth="1" width="10" height="10"><BaseURL>v.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>
        """

    @Test func typeComesFromContentNotExtension() throws {
        let origin = FakeOrigin([
            "https://a.example/looks-like.mpd": Self.media,
            "https://a.example/looks-like.m3u8": Self.mpd,
        ])
        let loader = origin.loader()
        guard case .media(let media) = try loader.load(URL(string: "https://a.example/looks-like.mpd")!) else {
            Issue.record("HLS content not detected")
            return
        }
        #expect(media.segments.count == 1)
        guard case .dash(let dash) = try loader.load(URL(string: "https://a.example/looks-like.m3u8")!) else {
            Issue.record("DASH content not detected")
            return
        }
        #expect(dash.renditions.map(\.id) == ["v"])
        #expect(origin.requests.withLock { $0.allSatisfy { $0.kind == .playlist } })
    }

    @Test(arguments: [
        ("", "empty (0 bytes)"),
        ("  \n\t\n", "empty (5 bytes of whitespace)"),
        ("<!DOCTYPE html><html><head><title>404 Not Found</title></head></html>", "an HTML page (title '404 Not Found')"),
        ("<html><body>maintenance</body></html>", "an HTML page"),
        ("<?xml version=\"1.0\"?><!-- c --><rss version=\"2.0\"></rss>", "an XML document with root <rss>, not <MPD>"),
        ("{\"error\": \"expired\"}", "a JSON document"),
        ("hello world\nsecond line", "text that is neither HLS nor DASH (first line 'hello world')"),
    ])
    func notAPlaylistSaysWhatItLooksLike(body: String, description: String) {
        let origin = FakeOrigin(["https://a.example/x.m3u8": body])
        let error = #expect(throws: ReelError.self) { try origin.loader().load(URL(string: "https://a.example/x.m3u8")!) }
        #expect(error?.code == .notAPlaylist)
        #expect(error?.message.contains("https://a.example/x.m3u8 is not a playlist: it is \(description)") == true, "\(error?.message ?? "")")
    }

    @Test func binaryBodiesAreNamed() {
        var ts = [UInt8](repeating: 0xFF, count: 376)
        ts[0] = 0x47
        ts[188] = 0x47
        let mp4: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 16)
        let garbage: [UInt8] = [0xC3, 0x28, 0x00, 0x01, 0xFE, 0xFF, 0x10, 0x80, 0x81]
        for (bytes, description) in [(ts, "an MPEG-TS stream"), (mp4, "an MP4 file"), (garbage, "binary data (first bytes c3 28 00 01")] {
            let error = #expect(throws: ReelError.self) {
                try ManifestLoader.parse(Data(bytes), url: URL(string: "https://a.example/x")!)
            }
            #expect(error?.code == .notAPlaylist)
            #expect(error?.message.contains(description) == true, "\(error?.message ?? "")")
        }
    }

    @Test func masterListingItselfIsAnErrorNamingTheURL() {
        let url = "https://a.example/master.m3u8"
        let origin = FakeOrigin([url: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nmaster.m3u8#again\n"])
        let error = #expect(throws: ReelError.self) { try origin.loader().load(URL(string: url)!) }
        #expect(error?.code == .malformedPlaylist)
        #expect(error?.message == "master playlist \(url) lists itself as a variant (a loop)")
    }

    @Test func loopThroughAnotherMasterIsAnError() {
        let origin = FakeOrigin([
            "https://a.example/a.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nb.m3u8\n",
            "https://a.example/b.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n",
        ])
        let error = #expect(throws: ReelError.self) { try origin.loader().loadDeep(URL(string: "https://a.example/a.m3u8")!) }
        #expect(error?.message == "playlist loop: https://a.example/a.m3u8 -> https://a.example/b.m3u8 -> https://a.example/a.m3u8")
    }

    @Test func nestedMasterIsAnError() {
        let origin = FakeOrigin([
            "https://a.example/a.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nb.m3u8\n",
            "https://a.example/b.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nc.m3u8\n",
        ])
        let error = #expect(throws: ReelError.self) { try origin.loader().loadDeep(URL(string: "https://a.example/a.m3u8")!) }
        #expect(error?.message == "variant https://a.example/b.m3u8 of master https://a.example/a.m3u8 is itself a master playlist")
    }

    @Test func deepLoadFetchesEachPlaylistOnce() throws {
        let origin = FakeOrigin([
            "https://a.example/m.m3u8": """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",LANGUAGE="en",URI="audio.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="b",NAME="en",LANGUAGE="en",URI="audio.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=2000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="a"
            hi.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="b"
            lo.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=64,CODECS="mp4a.40.2"
            audio-only.m3u8
            """,
            "https://a.example/hi.m3u8": Self.media,
            "https://a.example/lo.m3u8": Self.media,
            "https://a.example/audio.m3u8": Self.media,
            "https://a.example/audio-only.m3u8": Self.media,
        ])
        let manifest = try origin.loader().loadDeep(URL(string: "https://a.example/m.m3u8")!)
        guard case .master(let master) = manifest else {
            Issue.record("expected a master")
            return
        }
        #expect(master.renditions.map(\.id) == ["hi.m3u8", "lo.m3u8", "audio-only.m3u8", "audio.m3u8"])
        #expect(master.renditions.map(\.type) == [.video, .video, .audio, .audio])
        #expect(master.renditions[3].language == "en")
        #expect(master.renditions[0].bandwidth == 2000)
        #expect(origin.requestedURLs.count == 5)
        #expect(manifest.renditions.count == 4)
        // A plain load does not fetch the children.
        let shallow = try origin.loader().load(URL(string: "https://a.example/m.m3u8")!)
        #expect(shallow.renditions.isEmpty && shallow.variants.count == 3)
    }

    @Test func sizeCapIsEnforced() {
        let origin = FakeOrigin(["https://a.example/big.m3u8": Self.media + String(repeating: "#\n", count: 100)])
        var limits = ManifestLimits.default
        limits.maxPlaylistBytes = 100
        let error = #expect(throws: ReelError.self) {
            try origin.loader(limits: limits).load(URL(string: "https://a.example/big.m3u8")!)
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("over the 100-byte playlist limit") == true)
    }

    @Test func fetchErrorsPassThroughOrAreWrapped() {
        let missing = #expect(throws: ReelError.self) {
            try FakeOrigin([:]).loader().load(URL(string: "https://a.example/none.m3u8")!)
        }
        #expect(missing?.code == .httpStatus)
        struct Refused: Error {}
        let loader = ManifestLoader { _ in throw Refused() }
        let wrapped = #expect(throws: ReelError.self) { try loader.load(URL(string: "https://a.example/x.m3u8")!) }
        #expect(wrapped?.code == .networkFailed)
        #expect(wrapped?.cause is Refused)
    }

    @Test func loadMediaPlaylistRefusesMastersAndMPDs() {
        let origin = FakeOrigin([
            "https://a.example/m.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nx.m3u8\n",
            "https://a.example/d.mpd": Self.mpd,
        ])
        for url in ["https://a.example/m.m3u8", "https://a.example/d.mpd"] {
            let error = #expect(throws: ReelError.self) { try origin.loader().loadMediaPlaylist(URL(string: url)!) }
            #expect(error?.message.hasPrefix(url) == true)
        }
    }
}
