import Foundation
import ReelCore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Testing
@testable import ReelMedia

/// A segment still arriving reaches its demuxer as it arrives: FFmpeg's HLS demuxer reads a
/// segment in blocks of 32 KiB and would wait for each to be whole (`SourceIO`).
@Suite("A segment still arriving")
struct ProgressiveSegmentTests {
    static let segment = "/streams/s15/360p/seg_000.ts"
    /// Less than one block; the key frame and many frames after it.
    static let sent = 24_000

    @Test("its packets reach the player before a block of 32 KiB has come")
    func packetsBeforeAWholeBlock() async throws {
        try await withSampleServer { server in
            // The server sends the segment's first bytes, then nothing until it stops.
            server.injectFault(.stall(afterBytes: Self.sent), path: Self.segment)
            let url = server.url(for: "streams/s15/360p/index.m3u8")
            let cancellation = Cancellation()
            // Only a bound on a failure, never reached when the test passes: a demuxer that waited
            // for the whole block would wait until the server stops.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                cancellation.cancel()
            }
            defer { watchdog.cancel() }
            let videoPackets = try await BlockingPool.shared.run {
                let opener = MediaOpener(
                    factory: MediaTestSupport.factory(), cancellation: cancellation, log: RequestLog(),
                    constraints: PlaybackConstraints(), demux: DemuxOptions(), includeAudio: false)
                var timeline = TTFFTimeline()
                let media = try opener.open(url, timeline: &timeline)
                return try withExtendedLifetime(media) {
                    var reader = PacketReader(media)
                    var notes = NoteList()
                    var count = 0
                    while count < 10 {
                        let packet = Packet()
                        switch try reader.read(into: packet, notes: &notes) {
                        case .packet where packet.streamIndex == media.video.index: count += 1
                        case .endOfStream: return count
                        case .packet, .skipped: continue
                        }
                    }
                    return count
                }
            }
            #expect(videoPackets == 10)
            // Cancelled, the stalled read would have ended and the demuxer gone on to the next segment.
            #expect(!cancellation.isCancelled, "the packets came only once the stalled read was cancelled")
            // One request, still held: the packets came from the bytes sent before the stall.
            let bill = try #require(server.bill().paths[Self.segment])
            #expect(bill.requests == 1)
            #expect(bill.bodyBytes == Self.sent)
        }
    }
}
