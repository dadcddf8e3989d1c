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
    /// The share of the first segment the first frame needs (its key frame and the headers before).
    package var firstFrameShare = 0.3

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
