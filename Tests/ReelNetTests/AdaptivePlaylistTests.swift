import Foundation
import ReelManifest
import ReelNet
import Testing

/// The playlist FFmpeg reads for a play that may switch: the start variant's durations under
/// Reel-owned segment names; and which other variants line up with it.
@Suite("Adaptive playlist")
struct AdaptivePlaylistTests {
    static let master = URL(string: "http://cdn.test/v/master.m3u8")!

    static func playlist(_ variant: String, durations: [Double], ext: String = "ts") -> MediaPlaylist {
        let url = URL(string: "http://cdn.test/v/\(variant)/index.m3u8")!
        return MediaPlaylist(url: url, targetDuration: 2, endList: true, playlistType: .vod,
                             segments: durations.enumerated().map { index, duration in
                                 let name = "seg_\(index).\(ext)"
                                 return Segment(uri: name, resolvedURL: url.deletingLastPathComponent().appendingPathComponent(name),
                                                duration: duration, sequenceNumber: Int64(index))
                             })
    }

    @Test func segmentsAreRenamedAndKeepTheirDurations() {
        let text = AdaptivePlaylist.render(Self.playlist("720p", durations: [2, 2, 1.5]), master: Self.master)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("#EXTINF:") } == ["#EXTINF:2.0,", "#EXTINF:2.0,", "#EXTINF:1.5,"])
        // Ending with the segments' extension: FFmpeg checks a detected format against it.
        #expect(lines.filter { $0.hasPrefix("http") } == (0..<3).map { "http://cdn.test/v/master.m3u8#reel-abr-\($0).ts" })
        #expect(lines.last == "#EXT-X-ENDLIST")
        #expect(!text.contains("DISCONTINUITY") && !text.contains("BYTERANGE"))
    }

    @Test func variantsLineUpByCountAndStartTime() {
        let played = Self.playlist("720p", durations: [2, 2, 2, 2])
        #expect(AdaptivePlaylist.misalignment(of: Self.playlist("360p", durations: [2.02, 1.98, 2, 2]), with: played) == nil)
        #expect(AdaptivePlaylist.misalignment(of: Self.playlist("360p", durations: [2, 2, 2]), with: played)
                == "it has 3 segments, not 4")
        #expect(AdaptivePlaylist.misalignment(of: Self.playlist("360p", durations: [2.5, 2, 2, 1.5]), with: played)
                == "its segment 1 starts at 2.5 s, not 2.0 s")
    }

    @Test func encryptedOrFragmentedVariantsCannotSwitch() {
        var encrypted = Self.playlist("360p", durations: [2, 2])
        encrypted.segments[1].key = Key(method: "AES-128", uri: "k", resolvedURL: URL(string: "http://cdn.test/k")!)
        #expect(AdaptivePlaylist.unswitchable(encrypted) == "its segments are encrypted")
        var fragmented = Self.playlist("360p", durations: [2, 2], ext: "m4s")
        fragmented.segments[0].initSection = InitSection(uri: "init.mp4", resolvedURL: URL(string: "http://cdn.test/init.mp4")!)
        #expect(AdaptivePlaylist.unswitchable(fragmented) == "its segments need an init section (fMP4)")
        var live = Self.playlist("360p", durations: [2])
        live.endList = false
        live.playlistType = nil
        #expect(AdaptivePlaylist.unswitchable(live) == "it is live")
        #expect(AdaptivePlaylist.unswitchable(Self.playlist("360p", durations: [2])) == nil)
    }
}
