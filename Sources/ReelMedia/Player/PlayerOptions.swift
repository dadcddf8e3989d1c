import ReelCore
import ReelManifest
import ReelNet

/// How a player opens, buffers and shows its video.
public struct PlayerOptions: Sendable {
    /// Real time (paced on the frame clock) or as fast as the decoder goes.
    public var mode: HeadlessRenderer.Mode = .realTime
    public var demux = DemuxOptions()
    /// What the device can show and afford: picks the variant, as for `reel play`.
    public var constraints = PlaybackConstraints()
    /// How long the play goes on while its fetches fail (`network.*`).
    public var failureBudget = FailureBudget(NetworkOptions())
    /// What the input's manifest may make the parsers build (`manifest.*`).
    public var manifestLimits = ManifestLimits.default
    public var buffer = BufferPolicy()
    /// Decode the first frame while mounted and hold it, so a play shows it at once
    /// (`playback.prerollFirstFrame`).
    public var preroll = false
    /// Hash every decoded frame (the `ffmpeg -f framemd5` hash) for `onFrameHash`.
    public var frameHashes = false
    /// Keep the picture the renderer presented last (`Player.picture`), for a screen to show.
    public var keepsPicture = false
    /// Decode the input's sound too (its muxed audio stream), to PCM a speaker reads from
    /// `Player.sound`; nil decodes video only.
    public var sound: SoundOptions?
    /// The name of the demuxer's thread, before `.<card>`: an owner running several players tags
    /// its own to tell them apart (`DedicatedThread.running(prefix:)`).
    public var threadName = "reel.player"
    /// Describe the player's requests in CMCD (`network.cmcd.enabled`).
    public var cmcd = false

    public init() {}

    /// The options the configuration describes: `decoder.*` for the demuxer, `device.*` for the
    /// variant, `manifest.*` for parsing, `playback.*` for buffering.
    public init(config: ReelConfig) {
        demux = DemuxOptions(config.decoder)
        constraints = PlaybackConstraints(config)
        manifestLimits = ManifestLimits(config.manifest)
        buffer = BufferPolicy(config.playback)
        preroll = config.playback.prerollFirstFrame
        failureBudget = FailureBudget(NetworkOptions(config.network))
        cmcd = config.network.cmcd.enabled
    }
}
