/// How much of a video a prefetch fetches after its manifests: a number of segments, or the
/// segments covering its first milliseconds of media (at least one when above 0). 0 of either
/// fetches the manifests only.
public enum PrefetchAmount: Sendable, Hashable, CustomStringConvertible {
    case segments(Int)
    case media(ms: Int)

    /// The segments of `durations` (seconds each, in play order) this amount covers.
    public func segmentCount(durations: [Double]) -> Int {
        switch self {
        case .segments(let count):
            return max(0, count)
        case .media(let ms):
            guard ms > 0 else { return 0 }
            var covered = 0.0, count = 0
            for duration in durations {
                count += 1
                covered += max(0, duration)
                if covered * 1000 >= Double(ms) { break }
            }
            return count
        }
    }

    public var description: String {
        switch self {
        case .segments(let count): "\(count) segment\(count == 1 ? "" : "s")"
        case .media(let ms): "\(ms) ms"
        }
    }
}
