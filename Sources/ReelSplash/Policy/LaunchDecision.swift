/// What the app shows for one lifecycle event, and why. Made at once from what is cached: a
/// decision never waits on the network.
public struct LaunchDecision: Sendable, Hashable {
    public enum Show: Sendable, Hashable {
        /// The splash with this id (its asset: `assetURL`).
        case splash(String)
        case loadingAnimation
        case nothing
    }

    public var show: Show
    /// Why this shows (`eligible`, `firstLaunch`, `newSession`, `quickReturn`, `notALaunch`).
    public var reason: LaunchReason
    /// Why no splash shows, for a launch or foreground without one; nil otherwise.
    public var splashReason: LaunchReason?
    /// One line for people: which splash came closest and what held it back.
    public var detail: String
    /// The splash's asset URL, with `.splash`.
    public var assetURL: String?
    /// How long the loading animation plays, with `.loadingAnimation`.
    public var loading: LoadingAnimationPlan?

    public init(show: Show, reason: LaunchReason, splashReason: LaunchReason? = nil, detail: String = "",
                assetURL: String? = nil, loading: LoadingAnimationPlan? = nil) {
        self.show = show
        self.reason = reason
        self.splashReason = splashReason
        self.detail = detail
        self.assetURL = assetURL
        self.loading = loading
    }

    /// The splash's id, with `.splash`.
    public var splashID: String? {
        if case .splash(let id) = show { return id }
        return nil
    }

    /// "splash", "loadingAnimation" or "nothing", as `reel launch simulate --json` prints it.
    public var kind: String {
        switch show {
        case .splash: "splash"
        case .loadingAnimation: "loadingAnimation"
        case .nothing: "nothing"
        }
    }
}
