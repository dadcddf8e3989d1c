import ReelCore

/// The download policies a session can run, by `scheduler.policy`.
package enum DownloadPolicies {
    /// The policy `config` names: `today` (`TodayPolicy`) or `scheduler` (`LinkScheduler`).
    package static func make(_ config: ReelConfig) -> any DownloadPolicy {
        config.scheduler.policy == "scheduler" ? LinkScheduler(parameters: LinkScheduler.Parameters(config)) : TodayPolicy()
    }

    /// Segments a policy keeps on the link at once: `scheduler.maxTransfers` for the link
    /// scheduler; today's grants every reader that asks, as many as ask.
    package static func maxTransfers(_ config: ReelConfig) -> Int {
        config.scheduler.policy == "scheduler" ? config.scheduler.maxTransfers : .max
    }
}
