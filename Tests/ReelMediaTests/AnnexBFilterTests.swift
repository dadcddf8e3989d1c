import Foundation
import ReelCore
import ReelManifest
import ReelNet
import ReelTestSupport
import Testing
@testable import ReelMedia

/// H.264 from MP4 (fMP4, DASH) read as Annex B: what the reader hands the decoder, and the format
/// the pool sees.
@Suite("Annex B filter")
struct AnnexBFilterTests {
    @Test(arguments: ["s02", "s04", "s08", "s12"])
    func mp4H264IsReadAsAnnexBWithParameterSetsBeforeEveryKeyFrame(name: String) async throws {
        let read = try await Self.readVideo(name)
        #expect(read.converted)
        #expect(read.format.codec == "h264" && read.format.extradataDigest == 0, "\(read.format)")
        #expect(read.packets == (try MediaTestSupport.reference(name)).count)
        #expect(read.notAnnexB == 0 && read.notes.isEmpty, "\(read.notes)")
        #expect(read.keyFrames > 1 && read.keyFramesWithParameterSets == read.keyFrames)
    }

    @Test func mpegTSIsReadAsItIs() async throws {
        let read = try await Self.readVideo("s01")
        #expect(!read.converted)
        #expect(read.format.extradataDigest == 0)
        #expect(read.notAnnexB == 0 && read.notes.isEmpty && read.keyFrames > 1)
    }

    @Test func mpegTSAndConvertedFMP4ShareADecoder() async throws {
        let ts = try await MediaTestSupport.streamParameters("s01")
        for name in ["s02", "s04", "s08"] {
            let mp4 = try await MediaTestSupport.streamParameters(name)
            #expect(mp4.format.sharesDecoder(with: ts.format), "\(name): \(mp4.format) vs \(ts.format)")
        }
    }

    // MARK: - Helpers

    struct VideoRead: Sendable {
        var converted: Bool
        var format: StreamFormat
        var packets = 0
        /// Packets that do not begin with a start code.
        var notAnnexB = 0
        var keyFrames = 0
        /// Key frames whose packet carries an SPS (NAL type 7) and a PPS (8) before the IDR slice (5).
        var keyFramesWithParameterSets = 0
        /// What the reader noted (failed reads or conversions).
        var notes: [String] = []
    }

    /// Reads every video packet of a sample from its local path, as a player's demuxer does.
    static func readVideo(_ name: String) async throws -> VideoRead {
        let path = PackagePaths.samples.appendingPathComponent(try MediaTestSupport.sample(name).entry)
        return try await BlockingPool.shared.run {
            let opener = MediaOpener(
                factory: URLDataSourceFactory(engine: MediaTestSupport.engine, allowLocalFiles: true),
                cancellation: Cancellation(), log: RequestLog(), constraints: PlaybackConstraints(),
                demux: DemuxOptions(), includeAudio: false)
            var timeline = TTFFTimeline()
            let media = try opener.open(path, timeline: &timeline)
            media.input.discardAll(except: [media.video.index])
            var read = VideoRead(converted: media.annexB != nil, format: try media.videoStreamParameters().format)
            var reader = PacketReader(media)
            var notes = NoteList()
            while true {
                let packet = Packet()
                let result = try reader.read(into: packet, notes: &notes)
                if result == .endOfStream { break }
                guard result == .packet, packet.streamIndex == media.video.index else { continue }
                let bytes = packet.bytes
                read.packets += 1
                if !(bytes.starts(with: [0, 0, 1]) || bytes.starts(with: [0, 0, 0, 1])) { read.notAnnexB += 1 }
                if packet.isKeyFrame {
                    read.keyFrames += 1
                    let types = nalTypes(bytes)
                    if let idr = types.firstIndex(of: 5), types[..<idr].contains(7), types[..<idr].contains(8) {
                        read.keyFramesWithParameterSets += 1
                    }
                }
            }
            read.notes = notes.items
            return read
        }
    }

    /// The NAL unit types of an Annex B packet, in order.
    static func nalTypes(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var types: [UInt8] = []
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                types.append(bytes[index + 3] & 0x1F)
                index += 3
            } else {
                index += 1
            }
        }
        return types
    }
}
