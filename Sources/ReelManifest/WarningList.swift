import ReelCore
/// The warnings of one parse, at most `limit` of them kept: a hostile playlist can earn one per
/// line (two million in 32 MB), which would cost hundreds of megabytes and as many lines on a
/// terminal. The rest are counted and told in one last warning.
struct WarningList {
    static let limit = 1_000

    private(set) var kept: [ManifestWarning] = []
    private(set) var dropped = 0

    mutating func add(_ warning: ManifestWarning) {
        if kept.count < Self.limit {
            kept.append(warning)
        } else {
            dropped += 1
        }
    }

    /// Counts `count` warnings that were not even made.
    mutating func drop(_ count: Int) {
        dropped += count
    }

    /// The kept warnings (by line when `byLine`; those of one line keep their order), then one
    /// telling how many others there were.
    func all(byLine: Bool = false) -> [ManifestWarning] {
        var result = kept
        if byLine {
            result = kept.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
                .map(\.element)
        }
        if dropped > 0 { result.append(ManifestWarning(line: nil, "\(dropped) more warnings not listed")) }
        return result
    }
}
