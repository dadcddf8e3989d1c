/// Faults injected at given rates, reproducibly: each decision is a pure function of
/// (seed, path, the n-th request for that path), never of how concurrent requests interleave.
package struct FaultInjection: Sendable, Hashable, Codable {
    /// Probability that a request is answered with `failStatus` instead of the file.
    package var failRate: Double
    /// Probability that a response (not failed) is reset partway through its body.
    package var resetRate: Double
    /// Probability that a response (not failed nor reset) stalls partway through its body.
    package var stallRate: Double
    /// The seed every decision derives from.
    package var seed: UInt64
    /// The status a failed request gets.
    package var failStatus: Int

    package init(failRate: Double = 0, resetRate: Double = 0, stallRate: Double = 0, seed: UInt64 = 0, failStatus: Int = 503) {
        self.failRate = failRate
        self.resetRate = resetRate
        self.stallRate = stallRate
        self.seed = seed
        self.failStatus = failStatus
    }

    /// No faults.
    package static let none = FaultInjection()

    /// True when every rate is zero.
    package var isEmpty: Bool { failRate <= 0 && resetRate <= 0 && stallRate <= 0 }

    /// Throws when a rate is outside 0...1 or the status is not an HTTP status.
    package func validate() throws(CDNServerError) {
        for (name, rate) in [("fail rate", failRate), ("reset rate", resetRate), ("stall rate", stallRate)] {
            guard rate.isFinite, (0...1).contains(rate) else {
                throw CDNServerError(.invalidConfiguration, "\(name) \(rate) is outside 0...1")
            }
        }
        guard (100...599).contains(failStatus) else {
            throw CDNServerError(.invalidConfiguration, "fail status \(failStatus) is not an HTTP status")
        }
    }

    /// The fault for the `requestIndex`-th request (0 for the first) of `path`, whose body is
    /// `bodyLength` bytes; nil when the request is served normally. Reset and stall cut the body
    /// at a seeded point strictly inside it, so they only hit responses with a body.
    package func fault(forPath path: String, requestIndex: Int, bodyLength: Int) -> Fault? {
        guard !isEmpty else { return nil }
        let dice = FaultDice(seed: seed, path: path, requestIndex: requestIndex)
        if dice.roll(0) < failRate { return .status(failStatus) }
        guard bodyLength > 0 else { return nil }
        let cut = Int(Double(bodyLength) * (0.1 + 0.8 * dice.roll(3)))
        if dice.roll(1) < resetRate { return .reset(afterBytes: cut) }
        if dice.roll(2) < stallRate { return .stall(afterBytes: cut) }
        return nil
    }
}
