import Foundation
import ReelCore
import Testing

@testable import ReelManifest

/// Media playlists built to exhaust time or memory, to overflow 64-bit arithmetic, or to be read
/// differently by Reel and FFmpeg: each is refused with an error naming the playlist, the line
/// and the cause, or parsed correctly within raised limits. Elapsed times are printed, never
/// asserted.
@Suite struct ManifestHostileHLSTests {
    static let url = URL(string: "https://cdn.example.com/hostile/index.m3u8")!

    static func refusal(_ bytes: [UInt8], limits: ManifestLimits = .default) throws -> ReelError {
        let error = try #require(throws: ReelError.self) {
            try HLSPlaylistParser.parse(Data(bytes), url: url, limits: limits)
        }
        #expect(error.code == .malformedPlaylist)
        #expect(error.message.hasPrefix("\(url.absoluteString) line "), "\(error.message)")
        return error
    }

    static func media(_ bytes: [UInt8], limits: ManifestLimits = .default) throws -> MediaPlaylist {
        guard case .media(let playlist) = try HLSPlaylistParser.parse(Data(bytes), url: url, limits: limits) else {
            throw ReelError(.malformedPlaylist, "not a media playlist")
        }
        return playlist
    }

    /// A VOD playlist of `count` two-second segments `s0.ts`, `s1.ts`, ...: 1,000,000 of them
    /// make about 22 MB.
    static func playlist(segments count: Int) -> [UInt8] {
        var bytes = Array("#EXTM3U\n#EXT-X-TARGETDURATION:2\n".utf8)
        bytes.reserveCapacity(count * 18 + 64)
        for index in 0..<count {
            bytes += "#EXTINF:2,\ns".utf8
            bytes += String(index).utf8
            bytes += ".ts\n".utf8
        }
        bytes += "#EXT-X-ENDLIST\n".utf8
        return bytes
    }

    @Test func millionSegmentsAreRefusedBeforeAnyIsBuilt() throws {
        let bytes = Self.playlist(segments: 1_000_000)
        let start = ContinuousClock.now
        let error = try Self.refusal(bytes)
        print("1,000,000 segments (\(bytes.count) bytes), default limits: refused in \(ContinuousClock.now - start)")
        // Segment n's URI is on line 2 + 2n: the 100,001st on line 200,004.
        #expect(error.message.hasSuffix("line 200004: more than 100000 URI lines (segments or variants) (manifest.maxSegments)"))
    }

    /// With the limit raised, a quarter of the million refused above parses in linear time (on a
    /// blocking thread, not the cooperative pool's few; the size keeps a debug build's CPU time
    /// to about a second, as the suite runs everything at once on a 2-core machine).
    @Test func manySegmentsParseWithARaisedLimit() async throws {
        let playlist = try await BlockingPool.shared.run {
            let bytes = Self.playlist(segments: 250_000)
            var limits = ManifestLimits.default
            limits.maxSegments = 500_000
            let start = ContinuousClock.now
            let playlist = try Self.media(bytes, limits: limits)
            print("250,000 segments (\(bytes.count) bytes), limit raised: parsed in \(ContinuousClock.now - start)")
            return playlist
        }
        #expect(playlist.segments.count == 250_000)
        #expect(playlist.segments.last?.sequenceNumber == 249_999)
        #expect(playlist.segments.last?.resolvedURL.absoluteString == "https://cdn.example.com/hostile/s249999.ts")
        #expect(playlist.segments.last?.resolvedString == "https://cdn.example.com/hostile/s249999.ts")
    }

    /// A warning per line: two million would cost hundreds of megabytes and as many lines of
    /// output; the first 1,000 are kept and the rest counted.
    @Test func warningsAreBounded() throws {
        var bytes = Array("#EXTM3U\n".utf8)
        for _ in 0..<200_000 { bytes += "#EXT-X-VERSION:x\n".utf8 }
        bytes += "#EXTINF:2,\na.ts\n".utf8
        let playlist = try Self.media(bytes)
        #expect(playlist.warnings.count == 1_001)
        #expect(playlist.warnings.first?.description == "line 2: #EXT-X-VERSION 'x' is not a decimal integer; ignored")
        #expect(playlist.warnings.last?.description == "199001 more warnings not listed")

        var master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n".utf8)
        for _ in 0..<5_000 { master += "#EXT-X-ENDLIST\n".utf8 }
        let manifest = try HLSPlaylistParser.parse(Data(master), url: Self.url)
        #expect(manifest.warnings.count == 1_001)
        #expect(manifest.warnings.last?.description == "4000 more warnings not listed")
    }

    @Test func mediaSequenceAtTheTopIsRefusedInsteadOfWrapping() throws {
        let top = "9223372036854775807"
        let two = Array("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:\(top)\n#EXTINF:2,\na.ts\n#EXTINF:2,\nb.ts\n".utf8)
        let error = try Self.refusal(two)
        #expect(error.message.hasSuffix("line 6: the segment's media sequence number (EXT-X-MEDIA-SEQUENCE \(top) + 1) goes beyond 2^63-1"))
        let one = Array("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:\(top)\n#EXTINF:2,\na.ts\n".utf8)
        #expect(try Self.media(one).segments.map(\.sequenceNumber) == [Int64.max])
    }

    @Test func skippedSegmentsCannotPushTheSequencePast64Bits() throws {
        let text = "#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:9223372036854775000\n#EXT-X-SKIP:SKIPPED-SEGMENTS=1000\n#EXTINF:2,\na.ts\n"
        #expect(try Self.refusal(Array(text.utf8)).message.contains("line 5: the segment's media sequence number"))
    }

    @Test func byteRangesPast64BitsAreRefused() throws {
        let text = "#EXTM3U\n#EXTINF:2,\n#EXT-X-BYTERANGE:10@9223372036854775800\na.ts\n"
        #expect(try Self.refusal(Array(text.utf8)).message.hasSuffix("line 3: #EXT-X-BYTERANGE '10@9223372036854775800' ends beyond 2^63 bytes"))
        let continued = "#EXTM3U\n#EXTINF:2,\n#EXT-X-BYTERANGE:9223372036854775000@0\na.ts\n#EXTINF:2,\n#EXT-X-BYTERANGE:1000\na.ts\n"
        #expect(try Self.refusal(Array(continued.utf8)).message.hasSuffix("line 6: #EXT-X-BYTERANGE ends beyond 2^63 bytes"))
    }

    @Test func aPlaylistThatIsNotUTF8IsRefusedWithTheOffset() throws {
        var bytes = Array("#EXTM3U\n#EXTINF:2,\nseg".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(".ts\n".utf8)
        let error = try Self.refusal(bytes)
        #expect(error.message.hasSuffix("line 3: bytes that are not UTF-8 at offset 22; a playlist is UTF-8 text (RFC 8216)"), "\(error.message)")

        let nul = Array("#EXTM3U\n#EXTINF:2,\nseg\u{0}.ts\n".utf8)
        #expect(try Self.refusal(nul).message.contains("line 3: a NUL byte at offset 22"))
        // Multi-byte characters are text.
        #expect(try Self.media(Array("#EXTM3U\n#EXTINF:2,Été\nsegment-é.ts\n".utf8)).segments.count == 1)
    }
}
