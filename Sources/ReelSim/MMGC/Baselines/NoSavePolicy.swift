import ReelFeed

/// The challenge's `no_save` baseline (`baseline/no_save.py` with `simulator/mpc_module.py`) as a
/// download policy, its quirks kept (each changes results): the first chunk at the highest
/// level; the playing video to its end, then every queued video round-robin in 800 kB layers
/// until the whole queue is downloaded; wait 500 ms only then. The level comes from RobustMPC
/// over the target video's next (up to) 5 chunks: a harmonic mean of the last 5 throughputs
/// (bytes over the step's delay, leading zeros dropped) divided by 1 + the largest of the last 5
/// errors, with its own rebuffering weight 4.3 and the target video's own buffer. As in the
/// original, the error and estimate histories get two entries per decision, and the previous
/// level a combination's changes start from is carried over from the combination before (only
/// the first starts from the video's real last level); ties go to the later combination.
package struct NoSavePolicy: DownloadPolicy {
    package static let horizon = 5
    package static let layerBytes = 800_000.0
    package static let waitSeconds = 0.5
    package static let rebufferWeight = 4.3

    package var name: String { "no_save" }
    private var started = false
    /// The last 5 throughputs, MB/s, oldest first (zeros until measured).
    private var throughputs = [Double](repeating: 0, count: 5)
    private var estimates: [Double] = []
    private var errors: [Double] = []

    package init() {}

    package mutating func downloaded(_ request: SegmentRequest, bytes: Int, seconds: Double) {
        throughputs.removeFirst()
        throughputs.append((Double(bytes) / 1_000_000.0) / seconds)
    }

    package mutating func decide(_ state: LinkState) -> DownloadDecision {
        guard let playing = state.videos.first else { return .wait(until: state.now + Self.waitSeconds) }
        guard started else {
            started = true
            return .fetch(playing.next(at: 2))
        }
        let queued = Array(state.videos.prefix(MMGCSession.queueLength))
        var target: VideoState?
        if playing.remainingSegments > 0 {
            target = playing
        } else if queued.dropFirst().contains(where: { $0.remainingSegments > 0 }) {
            var layer = 1.0
            while target == nil {
                target = queued.dropFirst().first { Double($0.downloadedBytes) < Self.layerBytes * layer && $0.remainingSegments > 0 }
                layer += 1
            }
        }
        guard let target else { return .wait(until: state.now + Self.waitSeconds) }
        return .fetch(target.next(at: level(for: target)))
    }

    /// `estimate_bw()` then `mpc()`, as the baseline calls them.
    private mutating func level(for video: VideoState) -> Int {
        let last = throughputs[throughputs.count - 1]
        errors.append(!estimates.isEmpty && last != 0 ? abs(estimates[estimates.count - 1] - last) / last : 0)
        estimates.append(harmonicMean())
        errors.append(abs(estimates[estimates.count - 1] - last) / last)
        let future = harmonicMean() / (1 + errors.suffix(5).max()!)
        estimates.append(harmonicMean())

        let count = min(Self.horizon, video.remainingSegments)
        let kbps = video.bitrates.map { Double($0 / 1000) }
        var lastLevel = video.downloadedVariants.last ?? 0
        var best = 0
        var bestReward = -Double.infinity
        var combination = [Int](repeating: 0, count: count)
        let buffer = video.challengeBufferMs
        let combinations = pow3(count)
        for number in 0..<combinations {
            // Lexicographic order, the first position most significant (itertools.product).
            var rest = number
            for position in stride(from: count - 1, through: 0, by: -1) {
                combination[position] = rest % 3
                rest /= 3
            }
            var rebuffer = 0.0, current = buffer, bitrates = 0.0, changes = 0.0
            for (position, level) in combination.enumerated() {
                let download = 1000.0 * (Double(video.sizes[level][video.downloaded + position]) / 1_000_000.0) / future
                if current < download {
                    rebuffer += download - current
                    current = 0
                } else {
                    current -= download
                }
                current += 1000.0
                bitrates += kbps[level]
                changes += abs(kbps[level] - kbps[lastLevel])
                lastLevel = level
            }
            let reward = bitrates / 1000.0 - Self.rebufferWeight * rebuffer / 1000.0 - changes / 1000.0
            if reward >= bestReward {
                bestReward = reward
                best = combination[0]
            }
        }
        return best
    }

    private func harmonicMean() -> Double {
        let measured = throughputs.drop { $0 == 0 }
        var sum = 0.0
        for value in measured { sum += 1 / value }
        return 1.0 / (sum / Double(measured.count))
    }

    private func pow3(_ exponent: Int) -> Int { (0..<exponent).reduce(1) { result, _ in result * 3 } }
}
