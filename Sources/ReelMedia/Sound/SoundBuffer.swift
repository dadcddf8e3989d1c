import ReelCore

/// Decoded sound waiting for a speaker, bounded: chunks in media-time order, at most
/// `capacity` frames of them (past it the oldest go, counted), so a player nobody listens to
/// holds a few seconds, never the whole video. The demuxer's thread pushes, a speaker reads.
package final class SoundBuffer: Sendable {
    let format: SoundFormat
    private let capacity: Int
    private let state = Locked(State())

    private struct State {
        var chunks: [SoundChunk] = []
        var head = 0
        var frames = 0
        var dropped = 0
        var decoded = 0
    }

    init(_ options: SoundOptions) {
        format = options.format
        capacity = max(1, format.frames(seconds: options.capacity.seconds))
    }

    /// Adds decoded sound; drops the oldest past the capacity.
    func push(_ chunk: SoundChunk) {
        let channels = format.channels
        let count = chunk.frames(channels: channels)
        guard count > 0 else { return }
        state.withLock { state in
            state.chunks.append(chunk)
            state.frames += count
            state.decoded += count
            while state.frames > capacity, state.head < state.chunks.count {
                let oldest = state.chunks[state.head].frames(channels: channels)
                state.chunks[state.head] = SoundChunk(time: 0, samples: [])
                state.head += 1
                state.frames -= oldest
                state.dropped += oldest
            }
            Self.compact(&state)
        }
    }

    /// Takes up to `maxFrames` frames from media time `time` on: what lies before it is dropped
    /// (the picture is past it), and what follows comes in order, from the first sample at or
    /// after `time` (the chunk says its time: later than `time` where the sound has a gap). Nil
    /// when nothing at or after `time` is decoded yet.
    func read(from time: Double, maxFrames: Int) -> SoundChunk? {
        let channels = format.channels
        let rate = Double(format.sampleRate)
        return state.withLock { state -> SoundChunk? in
            var out: [Int16] = []
            var start: Double?
            var wanted = max(0, maxFrames)
            while wanted > 0, state.head < state.chunks.count {
                let chunk = state.chunks[state.head]
                let count = chunk.frames(channels: channels)
                // Frames of this chunk before `time` (or before where the read has got to).
                let from = start.map { $0 + Double(out.count / channels) / rate } ?? time
                let behind = min(Double(count), (from - chunk.time) * rate)
                let skip = behind > 0 ? Int(behind.rounded()) : 0
                let take = min(count - skip, wanted)
                if start == nil, take > 0 { start = chunk.time + Double(skip) / rate }
                if take > 0 { out.append(contentsOf: chunk.samples[(skip * channels)..<((skip + take) * channels)]) }
                wanted -= take
                let used = skip + take
                state.frames -= used
                if used == count {
                    state.chunks[state.head] = SoundChunk(time: 0, samples: [])
                    state.head += 1
                } else {
                    state.chunks[state.head] = SoundChunk(time: chunk.time + Double(used) / rate,
                                                          samples: Array(chunk.samples[(used * channels)...]))
                }
            }
            Self.compact(&state)
            return start.map { SoundChunk(time: $0, samples: out) }
        }
    }

    /// Frames held now, frames dropped unheard past the capacity, frames decoded in all.
    var counts: (held: Int, dropped: Int, decoded: Int) {
        state.withLock { ($0.frames, $0.dropped, $0.decoded) }
    }

    private static func compact(_ state: inout State) {
        if state.head > 64 && state.head * 2 > state.chunks.count {
            state.chunks.removeFirst(state.head)
            state.head = 0
        }
        if state.head == state.chunks.count {
            state.chunks.removeAll(keepingCapacity: true)
            state.head = 0
        }
    }
}
