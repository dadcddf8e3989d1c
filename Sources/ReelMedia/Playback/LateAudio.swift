import CAVCodec
import Foundation
import ReelCore

/// An audio rendition opened after the first video frame (`MediaOpener.deferAudio`): its own
/// demuxer and decoder, read alongside the video by time, so the audio's init section and first
/// segment never delay the first frame. Used on the playback's thread.
final class LateAudio {
    private let input: MediaInput
    private var reader: PacketReader
    private let index: Int
    private let timeBase: AVRational
    let decoder: Decoder
    private var ended = false
    private let packet = Packet()

    /// Opens `deferred`'s input and a decoder for its audio; nil when it has no audio stream.
    init?(_ deferred: DeferredAudio) throws {
        guard let (input, stream) = try deferred.open() else { return nil }
        self.input = input
        reader = PacketReader(input: input)
        index = stream.index
        timeBase = stream.timeBase
        decoder = try Decoder(parameters: stream.codecParameters, timeBase: stream.timeBase, threads: 1)
    }

    /// Decodes audio up to `seconds` of media time (the video's last packet), one packet past it.
    func catchUp(to seconds: Double?, core: inout DecodeCore) throws {
        while !ended {
            switch try reader.read(into: packet, notes: &core.notes) {
            case .endOfStream:
                ended = true
                core.decodeAudio(nil, with: decoder)
                return
            case .skipped:
                continue
            case .packet:
                defer { packet.unref() }
                guard packet.streamIndex == index else { continue }
                core.decodeAudio(packet, with: decoder)
                if let seconds, let time = packet.seconds(in: timeBase), time > seconds { return }
            }
        }
    }

    /// Decodes the rest of the audio (the video has ended).
    func finish(core: inout DecodeCore) throws {
        try catchUp(to: nil, core: &core)
    }

    /// Closes the audio's demuxer, so its requests reach the log.
    func close() { input.close() }
}
