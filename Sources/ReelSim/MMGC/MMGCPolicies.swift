import ReelCore
import ReelFeed

/// The policies the benchmark knows by name.
package enum MMGCPolicies {
    /// Reel's own (today's feed behaviour), the challenge's two baselines, and the oracle.
    package static let names = ["reel", "no_save", "fixed_preload", "oracle"]
    /// The ones that decide from what a solution sees (the oracle also knows the future).
    package static let deciding = ["reel", "no_save", "fixed_preload"]

    /// A fresh policy named `name` (not the oracle, which is computed per trace).
    package static func make(_ name: String, config: ReelConfig = ReelConfig()) throws -> any DownloadPolicy {
        switch name {
        case "reel": ReelFeedPolicy(parameters: ReelFeedPolicy.Parameters(config))
        case "no_save": NoSavePolicy()
        case "fixed_preload": FixedPreloadPolicy()
        case "oracle":
            throw ReelError(.invalidInput, "the oracle knows every watch time and the whole trace, which a solution is not told; it runs only inside `reel bench mmgc`")
        default:
            throw ReelError(.invalidInput, "unknown policy '\(name)'; use one of \(names.joined(separator: ", "))")
        }
    }
}
