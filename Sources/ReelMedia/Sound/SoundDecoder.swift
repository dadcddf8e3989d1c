import CAVCodec
import CAVFormat
import ReelCore

/// A player's sound, decoded on the demuxer's thread: an audio decoder for the input's audio
/// stream and a `Resampler` to the speaker's format, each frame pushed to the `SoundBuffer`
/// with its media time. AAC decodes in microseconds a packet, so it rides along the reads.
final class SoundDecoder {
    let streamIndex: Int
    private let timeBase: AVRational
    private let decoder: Decoder
    private let resampler: Resampler
    private let buffer: SoundBuffer
    private let frame = Frame()
    /// Where the next chunk starts, so consecutive frames make one unbroken timeline.
    private var next: Double?
    private(set) var failures = 0

    /// Opens a decoder for `stream`'s audio. The corresponding C function is `avcodec_open2`.
    init(stream: MediaInput.Stream, buffer: SoundBuffer) throws {
        streamIndex = stream.index
        timeBase = stream.timeBase
        decoder = try Decoder(parameters: stream.codecParameters, timeBase: stream.timeBase, threads: 1)
        resampler = Resampler(format: buffer.format)
        self.buffer = buffer
    }

    /// Decodes an audio packet (nil at the end of the input: drains the decoder and the
    /// resampler) and pushes what comes out.
    func decode(_ packet: Packet?, notes: inout NoteList) {
        while true {
            let sent = decoder.send(packet)
            if case .rejected(let status) = sent {
                failures += 1
                notes.add("decoding a sound packet failed: \(AVErrorCode(status))")
            }
            drain(notes: &notes)
            if sent != .full { break }
        }
        if packet == nil, let rest = try? resampler.flush(), !rest.isEmpty, let next {
            push(rest, at: next)
        }
    }

    private func drain(notes: inout NoteList) {
        while true {
            switch decoder.receive(into: frame) {
            case .frame:
                defer { frame.unref() }
                // The resampler's output runs behind its input by what it holds back.
                let delay = resampler.delay
                do {
                    let samples = try resampler.convert(frame)
                    let time = frame.timestamp.map { Double($0) * Double(timeBase.num) / Double(timeBase.den) - delay }
                    push(samples, at: time)
                } catch {
                    failures += 1
                    notes.add("\(error)")
                }
            case .failed(let status):
                failures += 1
                notes.add("decoding sound failed: \(AVErrorCode(status))")
            case .needsInput, .endOfStream:
                return
            }
        }
    }

    /// Pushes `samples` at `time`, or right after the previous chunk when that is within 30 ms of
    /// it (timestamps round; the samples do not).
    private func push(_ samples: [Int16], at time: Double?) {
        let format = buffer.format
        let count = samples.count / format.channels
        guard count > 0 || next == nil else { return }
        var start = time ?? next ?? 0
        if let next, abs(start - next) < 0.03 { start = next }
        next = start + format.seconds(frames: count)
        buffer.push(SoundChunk(time: start, samples: samples))
    }
}
