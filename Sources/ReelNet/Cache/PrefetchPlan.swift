import Foundation
import ReelCore
import ReelManifest

/// What to cache so one video starts without the network: the manifests (read while planning,
/// through the planner's factory, so they are cached too) and, in play order and each once, the
/// init sections, keys and first segments of the variant playback would choose. Planned with
/// playback's own `InputResolver` and `PlaybackConstraints`, so prefetch warms exactly the bytes
/// playback will ask for. `PrefetchJob` reads its items through the cache, skipping or following
/// what `Cache.status(of:)` shows already cached or in flight.
public struct PrefetchPlan: Sendable {
    /// The input.
    public var url: URL
    /// The chosen variant's media playlist (DASH: the representation's URL), or nil.
    public var variant: URL?
    /// The chosen DASH representation's id.
    public var rendition: String?
    /// The manifests read to make the plan, with what reading each cost (cache hit or not).
    public var manifests: [TransferMetrics]
    /// What to fetch, in play order.
    public var items: [DataSpec]
    /// The chosen variant's segments, all of them (not only the amount planned): each one's
    /// seconds, its bitrate (bits per second, 0 when the manifest does not say), each one's
    /// request, and the index of each by cache key.
    public var segmentDurations: [Double] = []
    public var bitrate = 0
    public var segmentSpecs: [DataSpec] = []
    public var segmentIndex: [String: Int] = [:]

    /// Plans the first `segments` segments of `url` (a media file: the whole file), its manifests
    /// parsed within `limits`. Blocking (reads manifests through `factory`): call it from a
    /// dedicated thread.
    public static func make(for url: URL, segments: Int, factory: any DataSourceFactory,
                            constraints: PlaybackConstraints, limits: ManifestLimits = .default,
                            includeAudio: Bool = true, cancellation: Cancellation = Cancellation()) throws -> PrefetchPlan {
        try make(for: url, amount: .segments(segments), factory: factory, constraints: constraints, limits: limits,
                 includeAudio: includeAudio, cancellation: cancellation)
    }

    /// Plans `amount` of `url` (segments, or the segments covering some milliseconds of media;
    /// a media file: the whole file), its manifests parsed within `limits`. Blocking.
    public static func make(for url: URL, amount: PrefetchAmount, factory: any DataSourceFactory,
                            constraints: PlaybackConstraints, limits: ManifestLimits = .default,
                            includeAudio: Bool = true, cancellation: Cancellation = Cancellation(),
                            cmcd: CMCDHints? = nil) throws -> PrefetchPlan {
        let log = RequestLog()
        var resolver = InputResolver(factory: factory, cancellation: cancellation, log: log, constraints: constraints)
        resolver.includeAudio = includeAudio
        resolver.limits = limits
        resolver.cmcd = cmcd
        let resolved = try resolver.resolve(url)
        var plan = PrefetchPlan(url: url, variant: resolved.variant, rendition: resolved.rendition, manifests: [], items: [])
        switch resolved.content {
        case .media(let source, _):
            source.close()
            log.record(source.metrics)
            plan.items = [DataSpec(url: url, kind: .media).with(cmcd)]
        case .playlist:
            if let playlist = resolved.playlist {
                plan.segmentDurations = playlist.segments.map(\.duration)
                plan.bitrate = (resolved.bitrateKbps ?? 0) * 1000
                plan.segmentIndex = Dictionary(playlist.segments.enumerated().map { ($1.dataSpec.cacheKey, $0) }) { first, _ in first }
                var hints = cmcd
                hints?.bitrateKbps = resolved.bitrateKbps
                hints?.topBitrateKbps = resolved.topBitrateKbps
                plan.segmentSpecs = Self.specs(playlist, segments: playlist.segments.count, hints: hints)
                    .filter { plan.segmentIndex[$0.cacheKey] != nil }
            }
            var seen: Set<String> = []
            for playlist in [resolved.playlist, resolved.audioPlaylist].compactMap({ $0 }) {
                let count = amount.segmentCount(durations: playlist.segments.map(\.duration))
                var hints = cmcd
                if hints != nil, playlist != resolved.audioPlaylist || resolved.playlist == nil {
                    hints?.bitrateKbps = resolved.bitrateKbps
                    hints?.topBitrateKbps = resolved.topBitrateKbps
                }
                for spec in Self.specs(playlist, segments: count, hints: hints) where seen.insert(spec.cacheKey).inserted {
                    plan.items.append(spec)
                }
            }
        }
        plan.manifests = log.all
        return plan
    }

    /// The init sections, keys and segments of the first `count` segments, in play order, with
    /// `hints` for CMCD (each segment's duration and the next added).
    static func specs(_ playlist: MediaPlaylist, segments count: Int, hints: CMCDHints? = nil) -> [DataSpec] {
        var specs: [DataSpec] = []
        let format: CMCDHints.StreamingFormat = playlist.url.pathExtension.lowercased() == "mpd" ? .dash : .hls
        func hinted(_ spec: DataSpec, _ segment: Segment? = nil, next: Segment? = nil) -> DataSpec {
            guard var hints else { return spec }
            hints.streamingFormat = hints.streamingFormat ?? format
            hints.streamType = playlist.endList ? .vod : .live
            if let segment {
                hints.durationMs = Int((segment.duration * 1000).rounded())
                hints.nextObject = next?.uri
            } else {
                hints.bitrateKbps = nil
                hints.topBitrateKbps = nil
            }
            return spec.with(hints)
        }
        let segments = Array(playlist.segments.prefix(max(0, count)))
        for (index, segment) in segments.enumerated() {
            if let map = segment.initSection {
                if let key = map.key { specs.append(hinted(key.dataSpec)) }
                specs.append(hinted(map.dataSpec))
            }
            if let key = segment.key { specs.append(hinted(key.dataSpec)) }
            let next = index + 1 < playlist.segments.count ? playlist.segments[index + 1] : nil
            specs.append(hinted(segment.dataSpec, segment, next: next))
        }
        return specs
    }
}

/// What one prefetch run did (`PrefetchJob`): per manifest and item, its bytes and whether it was
/// already cached (nothing fetched) or fetched now.
public struct PrefetchOutcome: Sendable, Codable {
    public struct Item: Sendable, Codable {
        public var url: String
        public var kind: ResourceKind
        public var bytes: Int64
        /// Of `bytes`, those the cache served (the cached start of a resumed entry, another
        /// reader's transfer); all of them when `alreadyCached`.
        public var cacheBytes: Int64
        public var alreadyCached: Bool
        /// The byte range asked for (`first-last`), or nil for the whole resource.
        public var range: String?

        init(url: String, kind: ResourceKind, bytes: Int64, cacheBytes: Int64? = nil, alreadyCached: Bool,
             range: String? = nil) {
            self.url = url
            self.kind = kind
            self.bytes = bytes
            self.cacheBytes = alreadyCached ? bytes : cacheBytes ?? 0
            self.alreadyCached = alreadyCached
            self.range = range
        }

        init(_ metrics: TransferMetrics) {
            self.init(url: metrics.url, kind: metrics.kind, bytes: metrics.bytes, cacheBytes: metrics.cacheHitBytes,
                      alreadyCached: metrics.cacheHit)
        }
    }

    public var url: URL
    public var variant: URL?
    public var manifests: [Item]
    public var items: [Item] = []
    /// Manifests and items that are not in the cache after the run because the cache could not
    /// store them (a full disk, a read-only folder): fetched and dropped, or not fetched at all
    /// once the cache had stopped storing. Empty when the run stored everything.
    public var notStored: [Item] = []

    /// Bytes fetched from the network (manifests included).
    public var fetchedBytes: Int64 {
        (manifests + items).reduce(0) { $0 + $1.bytes - $1.cacheBytes }
    }

    /// Bytes that were already cached (manifests included).
    public var cachedBytes: Int64 {
        (manifests + items).reduce(0) { $0 + $1.cacheBytes }
    }
}
