import ReelCore
import ReelFeed

/// The policies the benchmark knows by name.
package enum MMGCPolicies {
    /// Reel's own (the policy `scheduler.policy` names), today's feed behaviour, the link
    /// scheduler, the challenge's two baselines, and the oracle.
    package static let names = ["reel", "today", "scheduler", "no_save", "fixed_preload", "oracle"]
    /// The ones that decide from what a solution sees (the oracle also knows the future).
    package static let deciding = ["reel", "today", "scheduler", "no_save", "fixed_preload"]

    /// A fresh policy named `name` (not the oracle, which is computed per trace).
    package static func make(_ name: String, config: ReelConfig = ReelConfig()) throws -> any DownloadPolicy {
        switch name {
        case "reel": try make(config.scheduler.policy, config: config)
        case "today": ReelFeedPolicy(parameters: ReelFeedPolicy.Parameters(config))
        case "scheduler": LinkScheduler(parameters: schedulerParameters(config))
        case "no_save": NoSavePolicy()
        case "fixed_preload": FixedPreloadPolicy()
        case "oracle":
            throw ReelError(.invalidInput, "the oracle knows every watch time and the whole trace, which a solution is not told; it runs only inside `reel bench mmgc`")
        default:
            throw ReelError(.invalidInput, "unknown policy '\(name)'; use one of \(names.joined(separator: ", "))")
        }
    }

    /// The link scheduler's parameters in the challenge's world: `scheduler.*`, and the score's
    /// charges for a next video's start fetched before the playing video's last watched chunk
    /// and for a change of bitrate from one video to the next (docs/mmgc.md, "Score").
    package static func schedulerParameters(_ config: ReelConfig) -> LinkScheduler.Parameters {
        var parameters = LinkScheduler.Parameters(config)
        parameters.chargesEarlyStart = true
        parameters.chargesChangeAcrossVideos = true
        parameters.stallEventCost = 0
        return parameters
    }
}
