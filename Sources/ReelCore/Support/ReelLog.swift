import Logging

/// Reel's loggers, one per component (swift-log labels `reel.<component>`): library code logs
/// what a person running it may want to know (a cache that stopped writing at `warning`, each
/// transfer and FFmpeg's own messages at `debug`). The `reel` tool bootstraps swift-log to stderr
/// at the level its `--log-level` asks; an app embedding Reel bootstraps its own handler. Made on
/// first use, so after that bootstrap.
public enum ReelLog {
    /// The disk cache: folders refused, writes stopped, a corrupt index replaced.
    public static let cache = Logger(label: "reel.cache")
    /// Transfers: each request's outcome, retries.
    public static let net = Logger(label: "reel.net")
    /// Playback and decoding.
    public static let media = Logger(label: "reel.media")
    /// FFmpeg's own log lines (errors at `info`, warnings and details at `debug`).
    public static let ffmpeg = Logger(label: "reel.ffmpeg")
    /// The feed session: widgets collapsed, plays that failed.
    public static let feed = Logger(label: "reel.feed")
    /// The prefetcher.
    public static let prefetch = Logger(label: "reel.prefetch")
    /// Adaptive bitrate: variant switches, variants that cannot be switched to.
    public static let abr = Logger(label: "reel.abr")
    /// Configuration layers: unknown keys.
    public static let config = Logger(label: "reel.config")
    /// The launch module: splash configurations and assets refused, state not saved.
    public static let launch = Logger(label: "reel.launch")
}
