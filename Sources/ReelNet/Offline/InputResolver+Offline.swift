import Foundation
import ReelCore
import ReelManifest

extension InputResolver {
    /// Resolves `url` from the cache alone: the manifest from the cache; for a master (or an
    /// MPD) the variant chosen, with the same `VariantSelector`, among those whose media playlist
    /// and first segment (with its init section and key) are cached; the media playlist rewritten
    /// to the longest cached run of segments from the start with `ENDLIST`, so playback ends
    /// cleanly after the last cached segment. The factory's sources must already be offline (for
    /// the input's host at least).
    /// Throws `.offline` naming the input when nothing playable is cached.
    func resolveOffline(_ url: URL, context: CacheContext) throws -> ResolvedInput {
        let cache = context.cache
        func nothingCached(_ detail: String) -> ReelError {
            ReelError(.offline, "cannot play '\(url.absoluteString)' offline: \(detail) (cache '\(cache.directory.path)')",
                      cause: context.reachability.failure(for: url))
        }
        let body: [UInt8]
        do {
            body = try factory.fetch(DataSpec(url: url, kind: Self.guessKind(url)), cancellation: cancellation,
                                     limit: limits.maxPlaylistBytes, log: log)
        } catch let error as ReelError where error.code == .offline {
            throw nothingCached("it is not in the cache")
        }
        if case .binary = ManifestContent.detect(Data(body.prefix(4096)), url: url) {
            let memory = MemoryDataSource(body)
            let length = try memory.open(DataSpec(url: url, kind: .media))
            var resolved = ResolvedInput(url: url, content: .media(memory, length: length))
            resolved.offline = OfflineSelection(playlist: url, cachedSegments: 1, totalSegments: 1)
            return resolved
        }
        let isCached: (DataSpec) -> Bool = { cache.containsComplete($0) }
        switch try ManifestLoader.parse(Data(body), url: url, limits: limits) {
        case .media(let playlist):
            let count = HLSPlaylistWriter.cachedPrefixLength(of: playlist, isCached: isCached)
            guard count > 0 else { throw nothingCached("its first segment is not cached") }
            return try offlineMedia(playlist, count: count, variant: nil, topLevel: url)
        case .master(let master):
            var candidates: [(variant: Variant, playlist: MediaPlaylist, count: Int)] = []
            for variant in master.variants where isCached(variant.dataSpec) {
                guard let bytes = try? factory.fetch(variant.dataSpec, cancellation: cancellation, limit: limits.maxPlaylistBytes, log: log),
                      case .media(let playlist)? = try? ManifestLoader.parse(Data(bytes), url: variant.resolvedURL,
                                                                              limits: limits) else { continue }
                let count = HLSPlaylistWriter.cachedPrefixLength(of: playlist, isCached: isCached)
                if count > 0 { candidates.append((variant, playlist, count)) }
            }
            guard let chosen = VariantSelector.select(from: candidates.map(\.variant), constraints: constraints),
                  let pick = candidates.first(where: { $0.variant == chosen }) else {
                throw nothingCached("no variant has its start cached")
            }
            return try offlineMedia(pick.playlist, count: pick.count, variant: chosen.resolvedURL, topLevel: url)
        case .dash(let dash):
            let counts = dash.videoRenditions.map { HLSPlaylistWriter.cachedPrefixLength(of: $0.playlist, isCached: isCached) }
            let candidates = zip(dash.videoRenditions, counts).filter { $0.1 > 0 }
            guard let chosen = VariantSelector.select(from: candidates.map(\.0), constraints: constraints),
                  let pick = candidates.first(where: { $0.0 == chosen }) else {
                throw nothingCached("no representation has its start cached")
            }
            var video = chosen
            video.playlist = OfflineSelection.truncated(chosen.playlist, to: pick.1)
            var audio: Rendition?
            if includeAudio, let first = dash.renditions.first(where: { $0.type == .audio && !$0.segments.isEmpty }) {
                let count = HLSPlaylistWriter.cachedPrefixLength(of: first.playlist, isCached: isCached)
                if count > 0 {
                    audio = first
                    audio?.playlist = OfflineSelection.truncated(first.playlist, to: count)
                }
            }
            var resolved = try dashInput(url, video: video, audio: audio)
            resolved.offline = OfflineSelection(playlist: chosen.url, cachedSegments: pick.1,
                                                totalSegments: chosen.playlist.segments.count)
            return resolved
        }
    }

    /// The first `count` segments of `playlist` as a finished media playlist for the demuxer.
    private func offlineMedia(_ playlist: MediaPlaylist, count: Int, variant: URL?, topLevel: URL) throws -> ResolvedInput {
        let text = HLSPlaylistWriter().render(playlist, segmentCount: count, endList: true)
        var resolved = try mediaInput(OfflineSelection.truncated(playlist, to: count), bytes: Array(text.utf8),
                                      variant: variant, topLevel: topLevel)
        resolved.offline = OfflineSelection(playlist: playlist.url, cachedSegments: count,
                                            totalSegments: playlist.segments.count)
        return resolved
    }
}
