import ReelCore
import ReelServer

/// How long the simulated phone takes for what is not the network, taken from the real engine
/// (`reel feed run` events on the bundled samples, release build: the phases of first frames
/// whose bytes came from the cache): open, probe and codec open plus the first frame's decode
/// once the start of the first segment is there, and showing a frame already decoded and held.
/// The decoder never falls behind 1x (the bundled samples decode at many times real time).
package struct SimTiming: Sendable, Hashable {
    /// From the first segment's first frame bytes to the first frame, when nothing is prepared.
    package var openAndDecodeMs = 12.0
    /// From a play to showing a first frame a mounted player holds.
    package var showPreparedMs = 0.5
    /// The share of the first segment the first frame needs (its key frame and the headers before),
    /// before it is rounded up to the demuxer's reads (`demuxerReadBytes`).
    package var firstFrameShare = 0.15
    /// The blocks a demuxer reads a segment still arriving in, waiting until each is whole; 0: the
    /// bytes as they arrive, as the engine's players get them (`SourceIO` hands a segment on as it
    /// comes). FFmpeg's HLS and DASH demuxers on their own read 32 KiB blocks (`avio_read` in
    /// libavformat's hls.c and dashdec.c): at 360p close to a second of video.
    package var demuxerReadBytes = 0

    /// Of `arrived` bytes of a segment of `total`, those its demuxer has read: whole blocks, or
    /// everything once the segment is whole.
    package func demuxed(_ arrived: Int, of total: Int) -> Int {
        guard arrived < total, demuxerReadBytes > 0 else { return min(arrived, total) }
        return arrived / demuxerReadBytes * demuxerReadBytes
    }

    /// The share of a segment's media that `demuxed` of its `total` bytes let play: none before its
    /// key frame (`firstFrameShare` of the bytes, one frame), then the other frames as their bytes come.
    /// (Counting the key frame's bytes as media, a short that started on a link slower than its
    /// bitrate played on for 15 % of its first segment where the engine's ran dry at its first frame.)
    package func playableShare(_ demuxed: Int, of total: Int) -> Double {
        guard total > 0, demuxed < total else { return 1 }
        let key = keyFrameBytes(of: total)
        guard key < total else { return 0 }
        return Double(max(0, demuxed - key)) / Double(total - key)
    }

    /// The bytes of a segment's key frame (and the headers before it): `firstFrameShare` of them.
    private func keyFrameBytes(of total: Int) -> Int {
        Int(Double(total) * firstFrameShare)
    }

    /// The bytes of a first segment of `total` bytes that must arrive before its first frame
    /// decodes: `firstFrameShare` of it, rounded up to a whole demuxer read, at most all of it.
    package func firstFrameBytes(of total: Int) -> Int {
        let share = max(1, keyFrameBytes(of: total))
        guard demuxerReadBytes > 0 else { return min(share, max(1, total)) }
        let blocks = (share + demuxerReadBytes - 1) / demuxerReadBytes
        return max(1, min(total, blocks * demuxerReadBytes))
    }

    package init() {}
}

/// What the simulation runs: the network, the media and the phone's own timings.
package struct SimModels: Sendable {
    package var profile: NetworkProfile
    package var media: SimMediaCatalog
    package var timing: SimTiming

    package init(profile: NetworkProfile, media: SimMediaCatalog, timing: SimTiming = SimTiming()) {
        self.profile = profile
        self.media = media
        self.timing = timing
    }
}
