import Foundation
import ReelCore
import ReelManifest

extension InputResolver {
    /// The variant a play of a master starts on, by `VariantSelector` under `constraints` (the
    /// estimate of this moment). With adaptive bitrate and a cache, a variant whose start (media
    /// playlist, first segment with its init section and key) is cached comes first: its first
    /// segment costs no network, so the play starts sooner, and prefetch's bytes (fetched for the
    /// variant chosen when it ran) are the ones played. The choice among such variants is the
    /// selector's too; switching fixes the bitrate from the second segment on.
    func startVariant(of variants: [Variant], constraints: PlaybackConstraints) -> Variant? {
        if constraints.adaptive != nil, let cache = factory.cacheContext?.cache {
            let cached = variants.filter { variant in
                guard VariantSelector.fits(0, variant.resolution, constraints), cache.containsComplete(variant.dataSpec),
                      let bytes = try? factory.fetch(hinted(variant.dataSpec), cancellation: cancellation, limit: limits.maxPlaylistBytes),
                      case .media(let playlist)? = try? ManifestLoader.parse(Data(bytes), url: variant.resolvedURL,
                                                                              limits: limits) else { return false }
                return HLSPlaylistWriter.cachedPrefixLength(of: playlist, isCached: cache.containsComplete) > 0
            }
            if let choice = VariantSelector.select(from: cached, constraints: constraints) { return choice }
        }
        return VariantSelector.select(from: variants, constraints: constraints)
    }
}
