import Foundation
import ReelCore
import ReelTestSupport
import Testing

@testable import ReelNet

/// Bytes that look like a manifest but are not UTF-8 text never reach FFmpeg as media (its own
/// HLS and DASH parsers would read them with Reel's manifest rules bypassed): the input resolver
/// refuses them naming the URL and the offset of the first bad byte. Real media still plays.
@Suite struct ManifestNotUTF8Tests {
    static func resolve(_ bytes: [UInt8], at url: String) throws -> ResolvedInput {
        let resolver = InputResolver(factory: FixedBytesFactory(bytes: bytes), cancellation: Cancellation(), log: RequestLog())
        return try resolver.resolve(try #require(URL(string: url)))
    }

    static func refusal(_ bytes: [UInt8], at url: String) throws -> ReelError {
        try #require(throws: ReelError.self) { try resolve(bytes, at: url) }
    }

    /// An MPD of one video representation with `bad` bytes in its BaseURL, on line 3.
    static func mpd(prefix: [UInt8] = [], bad: [UInt8]) -> [UInt8] {
        prefix + Array("<?xml version=\"1.0\"?>\n<MPD mediaPresentationDuration=\"PT2S\"><Period><AdaptationSet contentType=\"video\">\n<Representation id=\"v\" bandwidth=\"1\"><BaseURL>v".utf8)
            + bad + Array(".mp4</BaseURL></Representation></AdaptationSet></Period></MPD>\n".utf8)
    }

    @Test(arguments: [
        ([UInt8](), "line 3: bytes that are not UTF-8 at offset 151"),
        ([0xEF, 0xBB, 0xBF], "line 3: bytes that are not UTF-8 at offset 154"),
    ])
    func anMPDThatIsNotUTF8IsRefused(prefix: [UInt8], mention: String) throws {
        let url = "http://cdn.test/video.mpd"
        let error = try Self.refusal(Self.mpd(prefix: prefix, bad: [0xC3, 0x28]), at: url)
        #expect(error.code == .malformedManifest)
        #expect(error.message.hasPrefix("\(url) \(mention)"), "\(error.message)")
    }

    @Test func anMPDAfterWhitespaceThatIsNotUTF8IsRefused() throws {
        var bytes = Array("  <MPD><Period>".utf8)
        bytes += [0x80, 0x81]
        bytes += Array("</Period></MPD>".utf8)
        let error = try Self.refusal(bytes, at: "http://cdn.test/clip")
        #expect(error.code == .malformedManifest)
        #expect(error.message == "http://cdn.test/clip line 1: bytes that are not UTF-8 at offset 15")
    }

    @Test func aPlaylistThatIsNotUTF8IsRefused() throws {
        var bytes = Array("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n".utf8)
        bytes += [0xFF]
        bytes += Array("seg.ts\n".utf8)
        let error = try Self.refusal(bytes, at: "http://cdn.test/v.m3u8")
        #expect(error.code == .malformedPlaylist)
        #expect(error.message.hasPrefix("http://cdn.test/v.m3u8 line 4: bytes that are not UTF-8 at offset 43"), "\(error.message)")
    }

    @Test func binaryThatFFmpegWouldProbeAsAnMPDIsRefused() throws {
        var bytes: [UInt8] = [0xFF, 0xFE, 0x41, 0x42]
        bytes += Array("junk <mpd xmlns=\"urn:mpeg:dash:schema:mpd:2011\" profiles=\"urn:mpeg:dash:profile:isoff-live:2011\">".utf8)
        let error = try Self.refusal(bytes, at: "http://cdn.test/clip.bin")
        #expect(error.code == .notAPlaylist)
        #expect(error.message.contains("'http://cdn.test/clip.bin' is binary data (first bytes ff fe 41 42"), "\(error.message)")
        #expect(error.message.contains("not UTF-8 text (bytes that are not UTF-8 at offset 0), holding '<MPD' at offset 9"), "\(error.message)")
    }

    @Test func unknownBinaryNamedAsAPlaylistIsRefused() throws {
        let bytes: [UInt8] = [0x01, 0x02, 0xFF, 0x00, 0x10, 0x80] + Array(repeating: 0x55, count: 40)
        for name in ["v.m3u8", "v.M3U", "manifest.mpd"] {
            let error = try Self.refusal(bytes, at: "http://cdn.test/\(name)")
            #expect(error.code == .notAPlaylist)
            #expect(error.message.contains("named as a playlist"), "\(error.message)")
            #expect(error.message.contains("bytes that are not UTF-8 at offset 2"), "\(error.message)")
        }
        // The same bytes under another name go to the demuxer, which judges them.
        let content = try Self.resolve(bytes, at: "http://cdn.test/clip.bin").content
        let isMedia = if case .media = content { true } else { false }
        #expect(isMedia)
    }

    @Test(arguments: ["s01/seg_000.ts", "s02/init.mp4", "s02/seg_000.m4s"])
    func realMediaStillPlaysWhateverItsName(sample: String) throws {
        let bytes = [UInt8](try Data(contentsOf: PackagePaths.samples.appendingPathComponent("streams/\(sample)")))
        for name in ["clip", "clip.m3u8", "clip.mpd"] {
            let resolved = try Self.resolve(bytes, at: "http://cdn.test/\(name)")
            let isMedia = if case .media = resolved.content { true } else { false }
            #expect(isMedia, "\(sample) as \(name)")
        }
    }
}
