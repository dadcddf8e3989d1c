import ReelCore

/// The download policies a session can run, by `scheduler.policy`.
package enum DownloadPolicies {
    /// The policy `config` names: `today` (`TodayPolicy`) or `scheduler` (`LinkScheduler`).
    package static func make(_ config: ReelConfig) -> any DownloadPolicy {
        decides(config) ? LinkScheduler(parameters: LinkScheduler.Parameters(config)) : TodayPolicy()
    }

    /// Whether the policy `config` names decides the link itself (the link scheduler) rather
    /// than granting what each reader's own rules ask (today's): it then orders the link by the
    /// feed's preload order, the prefetch gate does not hold the jobs, and a carousel plays what
    /// the link carries.
    package static func decides(_ config: ReelConfig) -> Bool {
        config.scheduler.policy == "scheduler"
    }

    /// Segments a policy keeps on the link at once: `scheduler.maxTransfers` for the link
    /// scheduler; today's grants every reader that asks, as many as ask.
    package static func maxTransfers(_ config: ReelConfig) -> Int {
        decides(config) ? config.scheduler.maxTransfers : .max
    }
}
