/// Why a launch decision came out as it did. `LaunchDecision.reason` explains what shows;
/// `LaunchDecision.splashReason` why no splash shows.
public enum LaunchReason: String, Sendable, Hashable, CaseIterable, Codable {
    // What shows.
    /// A splash is in its window, its asset is cached and valid, its interval has passed.
    case eligible
    /// The loading animation: the app's first launch ever.
    case firstLaunch
    /// The loading animation: back after `launch.sessionTimeoutMinutes` or more.
    case newSession
    /// Nothing: back sooner than `launch.sessionTimeoutMinutes`, and no splash.
    case quickReturn
    /// Nothing: a background or crash event shows nothing.
    case notALaunch

    // Why no splash.
    /// `launch.splash.enabled` is off.
    case disabled
    /// `launch.splash.enabled` is on only from a `minVersion` above `app.version`.
    case versionTooOld
    /// The last session crashed within `launch.crashGuardSeconds` of its start.
    case crashGuard
    /// No splash configuration is cached (never fetched, or no valid splash in it).
    case notConfigured
    /// No configured splash is in its window now.
    case outsideWindow
    /// The best splash in its window has no cached asset yet (not downloaded, or it failed).
    case assetNotCached
    /// The best splash in its window has an asset that failed validation.
    case assetInvalid
    /// The best splash in its window was shown less than its `displayTimeInterval` ago.
    case intervalNotElapsed
}
