import ReelManifest
/// The adaptive bitrate rule: a throughput rule with buffer hysteresis, decided at each segment
/// boundary (docs/abr.md). Every choice of "the variant this bandwidth affords" goes through
/// `VariantSelector`, the code the start variant and prefetch use, under the device's picture box.
///
/// - The estimate is the link's: the plays whose playheads move on it share it evenly (a
///   carousel's cards play together), so each affords from its share.
/// - A stall since the last segment: down at least one step, to what the lower of the share
///   and the last segment's own throughput affords.
/// - "Affords": fetching a segment, the latency plus its bits over the figure, takes at most the
///   safety factor of its play time (`ABRParameters.affordable`).
/// - That lower figure affords less than the current variant: down to it, but only when the
///   buffer is short (under `lowBuffer`, or shorter than fetching the next segment at the current
///   bitrate would take); a healthy buffer, or a player that does not play yet, rides out a dip.
/// - The share affords more: up to it once it has done so for `upHold` and `minBufferForUp`
///   of media is ahead (an up-switch costs a bigger segment while the buffer is what it is).
/// - Otherwise the variant holds.
///
/// Pure: inputs and a clock reading in, a decision out; `ABRController` performs it.
public struct ABRPolicy: Sendable {
    public let ladder: [ABRRung]
    public let constraints: PlaybackConstraints
    public let parameters: ABRParameters
    /// The variant of the last decision.
    public private(set) var current: Int
    /// Variants that cannot be switched to (their segments do not line up, their playlist or a
    /// segment failed, their host is unreachable).
    public private(set) var excluded: Set<Int> = []
    /// Since when the estimate has afforded a variant above the current one.
    private var upSince: Duration?
    private var stallsSeen = 0

    /// A rule over `ladder` starting at `start` (the start variant, chosen by `startIndex`).
    public init(ladder: [ABRRung], constraints: PlaybackConstraints, parameters: ABRParameters, start: Int) {
        self.ladder = ladder
        self.constraints = constraints
        self.parameters = parameters
        self.current = min(max(0, start), max(0, ladder.count - 1))
    }

    /// The start variant for `estimate` bits per second and `latency` per request: what
    /// `VariantSelector` picks with the bitrate they afford for a segment of `startSegment`.
    public static func startIndex(ladder: [ABRRung], constraints: PlaybackConstraints, parameters: ABRParameters,
                                  estimate: Int, latency: Duration = .zero) -> Int? {
        var limited = constraints
        limited.bandwidthBitsPerSecond = parameters.affordable(estimate, latency: latency)
        return VariantSelector.selectIndex(ladder.map { ($0.bandwidth, $0.resolution) }, constraints: limited)
    }

    /// The variant just chosen, `index`, cannot be played: its playlist does not line up with the
    /// one played (`permanently`: never chosen again) or could not be read now. The rule goes back
    /// to `previous`, the variant of the segment before.
    public mutating func reject(_ index: Int, back previous: Int, permanently: Bool) {
        if permanently && index != previous { excluded.insert(index) }
        current = min(max(0, previous), ladder.count - 1)
        upSince = nil
    }

    /// Variant `index` cannot be played at all (its playlist could not be read or does not line
    /// up, its host is unreachable): never chosen. The current variant stays as it is.
    public mutating func exclude(_ index: Int) {
        guard ladder.indices.contains(index), index != current else { return }
        excluded.insert(index)
    }

    /// A segment of variant `failed` could not be played (it failed after its retries, or was not
    /// media): `failed` is excluded for the rest of the play, and the segment is taken from
    /// `previous` (the variant of the segment before, which worked) when that is another usable
    /// variant, else from the usable variant nearest below `failed` in bandwidth, else the
    /// nearest above. The rule goes on from the variant returned; nil when none is left.
    public mutating func fallback(from failed: Int, previous: Int) -> Int? {
        excluded.insert(failed)
        upSince = nil
        let usable = ladder.indices.filter { !excluded.contains($0) }
        let ladder = self.ladder
        let rate = { (index: Int) in ladder[index].bandwidth }
        let below = usable.filter { rate($0) <= rate(failed) }.sorted { rate($0) > rate($1) }
        let above = usable.filter { rate($0) > rate(failed) }.sorted { rate($0) < rate($1) }
        let choice = usable.contains(previous) ? previous : (below + above).first
        if let choice { current = choice }
        return choice
    }

    /// The variant for the next segment.
    public mutating func decide(_ input: ABRInput) -> ABRDecision {
        let newStall = input.stalls > stallsSeen
        stallsSeen = max(stallsSeen, input.stalls)
        guard parameters.switching, ladder.count > 1 else { return ABRDecision(variant: current, reason: .hold) }

        // The link's estimate split among the plays on it; the last segment's throughput was
        // measured sharing it already.
        let share = input.share
        let low = min(share, input.lastThroughput ?? share)
        let sustained = afforded(share, input)
        let cautious = afforded(low, input)
        let now = ladder[current].bandwidth
        if newStall {
            let target = [cautious, stepDown(from: current)].min { ladder[$0].bandwidth < ladder[$1].bandwidth }!
            return move(to: target, reason: .downStall)
        }
        if ladder[cautious].bandwidth < now {
            upSince = nil
            // A playhead that does not move is in no hurry: the fetch can take what it takes.
            guard let buffered = input.buffered else { return ABRDecision(variant: current, reason: .hold) }
            if buffered < parameters.lowBuffer { return move(to: cautious, reason: .downBuffer) }
            // Time to fetch the next segment at the current bitrate with what the network gives.
            let fetch = input.latency
                + input.segmentDuration * (Double(now) / Double(max(1, low)))
            if fetch >= buffered { return move(to: cautious, reason: .downThroughput) }
            return ABRDecision(variant: current, reason: .hold)
        }
        if ladder[sustained].bandwidth > now {
            let since = upSince ?? input.now
            upSince = since
            if input.now - since >= parameters.upHold, (input.buffered ?? .seconds(3600)) >= parameters.minBufferForUp {
                return move(to: sustained, reason: .up)
            }
            return ABRDecision(variant: current, reason: .hold)
        }
        upSince = nil
        return ABRDecision(variant: current, reason: .hold)
    }

    private mutating func move(to target: Int, reason: ABRDecision.Reason) -> ABRDecision {
        guard target != current else { return ABRDecision(variant: current, reason: .hold) }
        current = target
        upSince = nil
        return ABRDecision(variant: target, reason: reason)
    }

    /// The usable variant `VariantSelector` picks with the bitrate `estimate` affords for the
    /// input's segment and latency (the lowest usable one when none fits).
    private func afforded(_ estimate: Int, _ input: ABRInput) -> Int {
        let usable = usableIndices
        var limited = constraints
        limited.bandwidthBitsPerSecond = parameters.affordable(estimate, latency: input.latency, segment: input.segmentDuration)
        let choice = VariantSelector.selectIndex(usable.map { (ladder[$0].bandwidth, ladder[$0].resolution) }, constraints: limited)
        return choice.map { usable[$0] } ?? current
    }

    /// The usable variant just below `index` in bandwidth, within the picture box (itself at the bottom).
    private func stepDown(from index: Int) -> Int {
        let box = usableIndices.filter { VariantSelector.fits(0, ladder[$0].resolution, constraints) || $0 == index }
        let lower = box.filter { ladder[$0].bandwidth < ladder[index].bandwidth }
        return lower.max { ladder[$0].bandwidth < ladder[$1].bandwidth } ?? index
    }

    /// Variants the rule may choose: all but the excluded (the current one always).
    private var usableIndices: [Int] {
        ladder.indices.filter { !excluded.contains($0) || $0 == current }
    }
}
