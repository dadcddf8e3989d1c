import Foundation
import ReelCore
import ReelManifest
import ReelNet
import Testing

@Suite("Sniffing and parsing inputs")
struct InputResolutionTests {
    @Test func parsesUrlsAndPaths() throws {
        #expect(try InputLocation.parse("http://127.0.0.1:8080/a.m3u8").absoluteString == "http://127.0.0.1:8080/a.m3u8")
        #expect(try InputLocation.parse("file:///tmp/a.m3u8").path == "/tmp/a.m3u8")
        #expect(try InputLocation.parse("a/b.m3u8", relativeTo: "/srv").path == "/srv/a/b.m3u8")
        #expect(try InputLocation.parse("/srv/../srv/c.m3u8").path == "/srv/c.m3u8")
    }

    @Test(arguments: ["ftp://host/a.m3u8", "rtsp://host/stream", "gopher://x/y"])
    func refusesUnsupportedSchemes(text: String) {
        let error = #expect(throws: ReelError.self) { try InputLocation.parse(text) }
        #expect(error?.code == .unsupportedScheme)
        #expect(error?.message.contains(text) == true)
    }

    @Test func refusesEmptyInputAndHostlessUrls() {
        #expect(throws: ReelError.self) { try InputLocation.parse("  ") }
        #expect(throws: ReelError.self) { try InputLocation.parse("http:///a.m3u8") }
    }

    @Test(arguments: [
        ("<!DOCTYPE html><html><title>Oops</title></html>", "an HTML page (title 'Oops')"),
        ("", "empty"),
        ("just words", "text that is neither HLS nor DASH"),
        ("<?xml version=\"1.0\"?><rss></rss>", "an XML document with root <rss>"),
    ])
    func resolverRefusesWhatIsNotAPlaylistOrMedia(body: String, description: String) {
        let url = URL(string: "http://cdn.test/video.m3u8")!
        let resolver = InputResolver(factory: FixedBytesFactory(bytes: Array(body.utf8)), cancellation: Cancellation(), log: RequestLog())
        let error = #expect(throws: ReelError.self) { try resolver.resolve(url) }
        #expect(error?.message.contains(url.absoluteString) == true)
        #expect(error?.message.contains(description) == true)
    }

    @Test func resolverReadsAWholePlaylist() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + String(repeating: "#EXTINF:2.0,\nseg.ts\n", count: 2000)
        let resolver = InputResolver(factory: FixedBytesFactory(bytes: Array(text.utf8)), cancellation: Cancellation(), log: RequestLog())
        let resolved = try resolver.resolve(URL(string: "http://cdn.test/v.m3u8")!)
        guard case .playlist(let bytes, let demuxer) = resolved.content else {
            Issue.record("expected a playlist")
            return
        }
        #expect(bytes.count == text.utf8.count)
        #expect(demuxer == "hls")
        #expect(resolved.playlist?.segments.count == 2000)
        #expect(resolved.kinds["http://cdn.test/seg.ts"] == .segment)
    }

    @Test func resolverRefusesAPlaylistWithoutSegments() {
        let resolver = InputResolver(factory: FixedBytesFactory(bytes: Array("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-ENDLIST\n".utf8)),
                                     cancellation: Cancellation(), log: RequestLog())
        let error = #expect(throws: ReelError.self) { try resolver.resolve(URL(string: "http://cdn.test/v.m3u8")!) }
        #expect(error?.message.contains("has no segments") == true)
    }

    // A bare path in a remote playlist is host-relative (it resolves to http://cdn.test/etc/passwd), not a file.
    @Test(arguments: ["file:///etc/passwd", "file:/etc/passwd", "ftp://cdn.test/seg.ts"])
    func resolverRefusesARemotePlaylistNamingLocalFilesOrOtherSchemes(uri: String) {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(uri)\n#EXT-X-ENDLIST\n"
        let resolver = InputResolver(factory: FixedBytesFactory(bytes: Array(text.utf8)), cancellation: Cancellation(), log: RequestLog())
        let error = #expect(throws: ReelError.self) { try resolver.resolve(URL(string: "http://cdn.test/v.m3u8")!) }
        #expect(error?.code == .forbiddenURL || error?.code == .unsupportedScheme)
        #expect(error?.message.contains("http://cdn.test/v.m3u8") == true)
    }

    @Test func resolverRefusesAMasterWhoseVariantIsAMaster() {
        // Every fetch returns the same master: its variant is (effectively) itself.
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nother.m3u8\n"
        let resolver = InputResolver(factory: FixedBytesFactory(bytes: Array(text.utf8)), cancellation: Cancellation(), log: RequestLog())
        let error = #expect(throws: ReelError.self) { try resolver.resolve(URL(string: "http://cdn.test/master.m3u8")!) }
        #expect(error?.code == .malformedPlaylist)
    }

    @Test func binaryInputGoesToTheDemuxerAsMedia() throws {
        var bytes = [UInt8](repeating: 0, count: 400)
        bytes[0] = 0x47
        bytes[188] = 0x47
        let resolver = InputResolver(factory: FixedBytesFactory(bytes: bytes), cancellation: Cancellation(), log: RequestLog())
        let resolved = try resolver.resolve(URL(string: "http://cdn.test/clip.ts")!)
        guard case .media = resolved.content else {
            Issue.record("expected media")
            return
        }
    }

    @Test func resolverRefusesAnOversizedPlaylist() {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + String(repeating: "#EXTINF:2.0,\nseg.ts\n", count: 2000)
        var resolver = InputResolver(factory: FixedBytesFactory(bytes: Array(text.utf8)), cancellation: Cancellation(), log: RequestLog())
        resolver.limits.maxPlaylistBytes = 10_000
        let error = #expect(throws: ReelError.self) { try resolver.resolve(URL(string: "http://cdn.test/v.m3u8")!) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("larger than 10000 bytes") == true)
    }
}

/// Serves the same bytes for every open: a fake for injecting odd content, not for skipping I/O.
struct FixedBytesFactory: DataSourceFactory {
    let bytes: [UInt8]
    func makeDataSource(cancellation: Cancellation) -> any DataSource { MemoryDataSource(bytes) }
}
