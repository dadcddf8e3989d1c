import Foundation
import Logging
import ReelCore
import ReelManifest

/// Decides what the demuxer gets for a top-level input, doing the manifest work itself: it
/// fetches the input, judges it by content (not by name), parses playlists and MPDs with Reel's
/// manifest model, chooses the variant with the `VariantSelector` that prefetch shares, and
/// refuses HTML pages, empty or garbage inputs, playlists without segments, masters pointing at
/// masters, and remote playlists naming local files, each with an error naming the URL.
/// Runs on the playback's dedicated thread (blocking reads).
public struct InputResolver {
    public var factory: any DataSourceFactory
    public var cancellation: Cancellation
    public var log: RequestLog
    public var constraints: PlaybackConstraints
    /// What a manifest may make the parsers build, its size first (`manifest.*`).
    public var limits = ManifestLimits.default
    /// Also hand the demuxer an audio rendition that is separate from the video (DASH).
    public var includeAudio = true
    /// What the play says of its requests for CMCD (the content, startup, a prefetch marker):
    /// the manifests it fetches carry it.
    public var cmcd: CMCDHints?

    public init(factory: any DataSourceFactory, cancellation: Cancellation, log: RequestLog,
                constraints: PlaybackConstraints = PlaybackConstraints()) {
        self.factory = factory
        self.cancellation = cancellation
        self.log = log
        self.constraints = constraints
    }

    /// Resolves `url`. With a cache behind the factory, offline (`--offline`, or once a request
    /// to `url`'s host could not connect) it plays what the cache holds instead: see
    /// `resolveOffline`. When the cache holds nothing usable after a connection failure, the
    /// connection failure is thrown. A variant's host that cannot be reached fails that variant.
    public func resolve(_ url: URL) throws -> ResolvedInput {
        guard let context = factory.cacheContext, !url.isFileURL else { return try resolveOnline(url) }
        if context.reachability.isOffline(for: url) { return try resolveOffline(url, context: context) }
        do {
            return try resolveOnline(url)
        } catch let error as ReelError where NetworkReachability.meansUnreachable(error) {
            // Only the input's own host being unreachable sends the play to the cache.
            guard context.reachability.isOffline(for: url), let offline = try? resolveOffline(url, context: context) else {
                throw error
            }
            return offline
        }
    }

    private func resolveOnline(_ url: URL) throws -> ResolvedInput {
        let source = factory.makeDataSource(cancellation: cancellation)
        let length: Int64?
        var prefix: [UInt8] = []
        do {
            length = try source.open(hinted(DataSpec(url: url, kind: Self.guessKind(url))))
            prefix = try source.read(upTo: 4096)
        } catch {
            finish(source)
            throw error
        }
        let content = ManifestContent.detect(Data(prefix), url: url)
        if case .binary = content, prefix.count > 0 {
            return ResolvedInput(url: url, content: .media(PrefixedDataSource(prefix: prefix, upstream: source), length: length))
        }
        let body: [UInt8]
        do {
            defer { finish(source) }
            if case .notAPlaylist(let looksLike) = content {
                throw ReelError(prefix.isEmpty ? .malformedPlaylist : .notAPlaylist,
                                "'\(url.absoluteString)' is \(looksLike), not a playlist or media")
            }
            body = prefix + (try source.readToEnd(limit: limits.maxPlaylistBytes, url: url, alreadyRead: prefix.count))
        }
        let manifest = try ManifestLoader.parse(Data(body), url: url, limits: limits)
        switch manifest {
        case .media(let playlist):
            var resolved = try mediaInput(playlist, bytes: body, variant: nil)
            if factory.segmentTurns != nil {
                // A session's download policy gives this play's segments their turns too: a
                // controller of one variant takes its seat (no ladder, so no adaptive report).
                resolved.adaptive = ABRController(
                    master: url, ladder: [ABRRung(bandwidth: 0)], variantURLs: [url], names: [url.absoluteString], start: 0,
                    played: playlist, constraints: PlaybackConstraints(), startEstimate: 0, factory: factory,
                    cancellation: cancellation, log: log, limits: limits, seatOnly: true)
            }
            return resolved
        case .master(let master):
            let current = constraints.now(meter: factory.bandwidthMeter)
            // A variant that cannot be opened (its playlist missing or broken, its host
            // unreachable) is a failed variant: the start goes to the next choice among the rest.
            var failures: [(index: Int, error: ReelError)] = []
            var opened: (variant: Variant, index: Int, bytes: [UInt8], playlist: MediaPlaylist)?
            while opened == nil {
                let left = master.variants.indices.filter { index in !failures.contains { $0.index == index } }
                guard let variant = startVariant(of: left.map { master.variants[$0] }, constraints: current),
                      let index = left.first(where: { master.variants[$0] == variant }) else {
                    throw Self.noVariant(of: url, failures: failures.map(\.error))
                }
                do {
                    let (bytes, playlist) = try variantPlaylist(variant, of: url)
                    opened = (variant, index, bytes, playlist)
                } catch let error as ReelError where error.code != .cancelled && !cancellation.isCancelled {
                    ReelLog.abr.info("variant '\(variant.resolvedURL.absoluteString)' of '\(url.absoluteString)' cannot be played: \(error.description)")
                    failures.append((index, error))
                }
            }
            guard let opened else { throw Self.noVariant(of: url, failures: failures.map(\.error)) }
            let (variant, start, variantBytes, playlist) = (opened.variant, opened.index, opened.bytes, opened.playlist)
            var resolved = try mediaInput(playlist, bytes: variantBytes, variant: variant.resolvedURL, topLevel: url)
            resolved.bitrateKbps = variant.bandwidth / 1000
            resolved.topBitrateKbps = master.variants.map(\.bandwidth).max().map { $0 / 1000 }
            let controller = ABRController(
                master: url, ladder: master.variants.map { ABRRung(bandwidth: $0.bandwidth, resolution: $0.resolution) },
                variantURLs: master.variants.map(\.resolvedURL), names: master.variants.map(\.resolvedURL.absoluteString),
                start: start, played: playlist, constraints: constraints,
                startEstimate: factory.bandwidthMeter?.bitsPerSecond ?? constraints.bandwidthBitsPerSecond ?? 0,
                factory: factory, cancellation: cancellation, log: log, limits: limits,
                excluded: Dictionary(failures.map { ($0.index, $0.error.description) }) { first, _ in first })
            if let text = controller.virtualPlaylist { resolved.content = .playlist(bytes: text, demuxer: "hls") }
            resolved.adaptive = controller
            return resolved
        case .dash(let dash):
            let renditions = dash.videoRenditions
            guard let rendition = VariantSelector.select(from: renditions, constraints: constraints.now(meter: factory.bandwidthMeter)) else {
                throw ReelError(.malformedManifest, "MPD '\(url.absoluteString)' has no video representation")
            }
            let audio = includeAudio ? dash.renditions.first(where: { $0.type == .audio && !$0.segments.isEmpty }) : nil
            var resolved = try dashInput(url, video: rendition, audio: audio)
            resolved.bitrateKbps = rendition.bandwidth.map { $0 / 1000 }
            resolved.topBitrateKbps = renditions.compactMap(\.bandwidth).max().map { $0 / 1000 }
            // Representations share init sections per representation: a DASH play keeps its
            // start variant, and the controller records its segments.
            resolved.adaptive = ABRController(
                master: url, ladder: renditions.map { ABRRung(bandwidth: $0.bandwidth ?? 0, resolution: $0.resolution) },
                variantURLs: renditions.map(\.url), names: renditions.map { "\($0.url.absoluteString)#\($0.id)" },
                start: renditions.firstIndex(of: rendition) ?? 0, played: rendition.playlist,
                constraints: PlaybackConstraints(), startEstimate: factory.bandwidthMeter?.bitsPerSecond ?? 0,
                factory: factory, cancellation: cancellation, log: log, limits: limits)
            return resolved
        }
    }

    /// The media playlist of `variant` of `master`, checked: an allowed URL, a media playlist.
    private func variantPlaylist(_ variant: Variant, of master: URL) throws -> (bytes: [UInt8], playlist: MediaPlaylist) {
        try URLPolicy(allowLocalFiles: master.isFileURL).check(variant.resolvedURL, in: master)
        let bytes = try factory.fetch(hinted(variant.dataSpec), cancellation: cancellation, limit: limits.maxPlaylistBytes, log: log)
        guard case .media(let playlist) = try ManifestLoader.parse(Data(bytes), url: variant.resolvedURL, limits: limits) else {
            throw ReelError(.malformedPlaylist,
                            "variant '\(variant.resolvedURL.absoluteString)' of '\(master.absoluteString)' is not a media playlist (a master listing a master, or itself)")
        }
        return (bytes, playlist)
    }

    /// No variant of the master at `url` could be opened: the first choice's failure (its code),
    /// naming how many others failed too; a master without variants is malformed.
    private static func noVariant(of url: URL, failures: [ReelError]) -> ReelError {
        guard let first = failures.first else {
            return ReelError(.malformedPlaylist, "master playlist '\(url.absoluteString)' lists no variants")
        }
        guard failures.count > 1 else { return first }
        return ReelError(first.code, "\(first.message); none of the other \(failures.count - 1) variants of '\(url.absoluteString)' could be opened either",
                         cause: first.cause)
    }

    /// FFmpeg's DASH demuxer would open every representation; Reel hands it the one chosen,
    /// written as an HLS media playlist with absolute URIs (plus one audio rendition, when wanted,
    /// behind a small master; both playlists are served from memory).
    func dashInput(_ url: URL, video rendition: Rendition, audio: Rendition?) throws -> ResolvedInput {
        let writer = HLSPlaylistWriter()
        let videoText = writer.render(rendition)
        var resolved = try mediaInput(rendition.playlist, bytes: Array(videoText.utf8), variant: rendition.url, topLevel: url)
        resolved.rendition = rendition.id
        if let audio {
            let checked = try mediaInput(audio.playlist, bytes: [], variant: nil, topLevel: url)
            resolved.kinds.merge(checked.kinds) { first, _ in first }
            resolved.audioPlaylist = audio.playlist
            let videoURL = Self.virtualURL(url, "video-\(rendition.id)")
            let audioURL = Self.virtualURL(url, "audio-\(audio.id)")
            resolved.virtualResources[videoURL] = Array(videoText.utf8)
            resolved.virtualResources[audioURL] = Array(writer.render(audio).utf8)
            resolved.videoPlaylistURL = videoURL
            resolved.audioPlaylistURL = audioURL
            let master = "#EXTM3U\n#EXT-X-VERSION:7\n"
                + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"audio\",NAME=\"\(audio.id)\",DEFAULT=YES,AUTOSELECT=YES,URI=\"\(audioURL)\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=\(rendition.bandwidth ?? 1),AUDIO=\"audio\"\n\(videoURL)\n"
            resolved.content = .playlist(bytes: Array(master.utf8), demuxer: "hls")
        }
        return resolved
    }

    /// `spec` with the play's CMCD hints, as a manifest of this input (HLS unless it is an MPD).
    func hinted(_ spec: DataSpec) -> DataSpec {
        guard var hints = cmcd else { return spec }
        if spec.kind == .playlist { hints.objectType = .manifest }
        if hints.streamingFormat == nil { hints.streamingFormat = spec.url.pathExtension.lowercased() == "mpd" ? .dash : .hls }
        return spec.with(hints)
    }

    /// A media playlist ready for FFmpeg's HLS demuxer, after checking its URIs.
    func mediaInput(_ playlist: MediaPlaylist, bytes: [UInt8], variant: URL?, topLevel: URL? = nil) throws -> ResolvedInput {
        let top = topLevel ?? playlist.url
        guard !playlist.segments.isEmpty else {
            throw ReelError(.malformedPlaylist, "playlist '\(playlist.url.absoluteString)' has no segments")
        }
        let policy = URLPolicy(allowLocalFiles: top.isFileURL)
        var kinds: [String: ResourceKind] = [:]
        for segment in playlist.segments {
            let segmentURL = segment.resolvedURL
            try policy.check(segmentURL, in: playlist.url)
            kinds[segmentURL.absoluteString] = .segment
            if let initSection = segment.initSection {
                try policy.check(initSection.resolvedURL, in: playlist.url)
                kinds[initSection.resolvedURL.absoluteString] = .initSection
            }
            if let key = segment.key {
                try policy.check(key.resolvedURL, in: playlist.url)
                kinds[key.resolvedURL.absoluteString] = .key
            }
        }
        kinds[playlist.url.absoluteString] = .playlist
        var resolved = ResolvedInput(url: playlist.url, content: .playlist(bytes: bytes, demuxer: "hls"), variant: variant)
        resolved.kinds = kinds
        resolved.playlist = playlist
        return resolved
    }

    /// A URL for a playlist Reel made itself, answered from memory by the input bridge.
    static func virtualURL(_ base: URL, _ name: String) -> String {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
        components?.fragment = "reel-\(name)"
        return components?.url?.absoluteString ?? base.absoluteString + "#reel-\(name)"
    }

    private func finish(_ source: any DataSource) {
        source.close()
        log.record(source.metrics)
    }

    static func guessKind(_ url: URL) -> ResourceKind {
        switch url.pathExtension.lowercased() {
        case "m3u8", "m3u", "mpd": .playlist
        default: .media
        }
    }
}
