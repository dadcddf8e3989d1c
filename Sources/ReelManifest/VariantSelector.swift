import ReelCore
/// The one variant choice that playback and prefetch share, so prefetch warms exactly the bytes
/// playback will ask for.
///
/// Policy (deterministic):
/// 1. A candidate *fits* when its resolution fits `PlaybackConstraints.resolutionBox` (long side
///    against long side, short against short; a candidate without a resolution fits) and its
///    peak `bandwidth` is at most `bandwidthBitsPerSecond` (any bandwidth fits when the estimate
///    is nil).
/// 2. Among fitting candidates, the one with the highest bandwidth wins; equal bandwidths go to
///    the one earlier in the manifest.
/// 3. When none fits, the one with the lowest bandwidth wins (earlier in the manifest on ties).
/// 4. No candidates: nil.
public enum VariantSelector {
    /// The chosen index into `candidates` (bandwidth, resolution), or nil when it is empty.
    public static func selectIndex(
        _ candidates: [(bandwidth: Int, resolution: Resolution?)], constraints: PlaybackConstraints
    ) -> Int? {
        var best: Int?
        var lowest: Int?
        for (index, candidate) in candidates.enumerated() {
            if lowest == nil || candidate.bandwidth < candidates[lowest!].bandwidth { lowest = index }
            guard fits(candidate.bandwidth, candidate.resolution, constraints) else { continue }
            if best == nil || candidate.bandwidth > candidates[best!].bandwidth { best = index }
        }
        return best ?? lowest
    }

    /// The variant of an HLS master to play.
    public static func select(from variants: [Variant], constraints: PlaybackConstraints) -> Variant? {
        selectIndex(variants.map { ($0.bandwidth, $0.resolution) }, constraints: constraints).map { variants[$0] }
    }

    /// The rendition to play among DASH video renditions (a rendition without a bandwidth counts
    /// as 0).
    public static func select(from renditions: [Rendition], constraints: PlaybackConstraints) -> Rendition? {
        selectIndex(renditions.map { ($0.bandwidth ?? 0, $0.resolution) }, constraints: constraints)
            .map { renditions[$0] }
    }

    /// The variant to play from any manifest: a master's variants or a DASH MPD's video
    /// renditions (`Manifest.variants`); nil for a media playlist, which has nothing to choose.
    public static func select(in manifest: Manifest, constraints: PlaybackConstraints) -> Variant? {
        select(from: manifest.variants, constraints: constraints)
    }

    package static func fits(_ bandwidth: Int, _ resolution: Resolution?, _ constraints: PlaybackConstraints) -> Bool {
        if let estimate = constraints.bandwidthBitsPerSecond, bandwidth > estimate { return false }
        guard let resolution else { return true }
        let box = constraints.resolutionBox
        return resolution.longSide <= box.longSide && resolution.shortSide <= box.shortSide
    }
}
