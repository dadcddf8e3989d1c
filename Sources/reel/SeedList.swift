import ArgumentParser

/// `--seeds`, the same in every command: the seeds of generated traces as a list, "1,2,3", with
/// ranges, "1-5" or "1-3,8" (at most 10,000 seeds).
struct SeedList: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    var seeds: [UInt64]

    init(_ seeds: [UInt64]) {
        self.seeds = seeds
    }

    init?(argument: String) {
        var seeds: [UInt64] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let low = UInt64(bounds[0]), let high = UInt64(bounds[bounds.count - 1]),
                  low <= high, high - low < 10_000, seeds.count + Int(high - low) < 10_000 else { return nil }
            seeds += Array(low...high)
        }
        guard !seeds.isEmpty else { return nil }
        self.seeds = seeds
    }

    var description: String { seeds.map(String.init).joined(separator: ",") }

    static let help = "Seeds of the generated traces: a list (1,2,3) with ranges (1-5)."
}
