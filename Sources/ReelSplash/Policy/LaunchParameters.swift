import Foundation
import ReelCore
import ReelManifest

/// The launch policy's settings, from `launch.*` (and `app.version` through the splash flag).
public struct LaunchParameters: Sendable, Hashable {
    public var splashFlag: SplashFlag
    /// Where the splash configuration comes from; nil: no splashes.
    public var configurationURL: URL?
    public var configurationRefreshSeconds: Double
    public var downloadAheadSeconds: Double
    public var sessionTimeoutSeconds: Double
    public var crashGuardSeconds: Double
    public var loading: LoadingAnimationPlan
    public var assetLimits: SplashAssetLimits
    /// Asset downloads at once.
    public var maxConcurrentDownloads: Int
    /// Assets downloaded and kept at once for the configuration (valid, refused or failed).
    public var maxAssets: Int
    /// Bytes of valid assets kept at once.
    public var maxTotalBytes: Int

    public init(splashFlag: SplashFlag = .on, configurationURL: URL? = nil, configurationRefreshSeconds: Double = 3600,
                downloadAheadSeconds: Double = 72 * 3600, sessionTimeoutSeconds: Double = 1800, crashGuardSeconds: Double = 10,
                loading: LoadingAnimationPlan = LoadingAnimationPlan(), assetLimits: SplashAssetLimits = SplashAssetLimits(),
                maxConcurrentDownloads: Int = 2, maxAssets: Int = 16, maxTotalBytes: Int = 8 << 20) {
        self.splashFlag = splashFlag
        self.configurationURL = configurationURL
        self.configurationRefreshSeconds = configurationRefreshSeconds
        self.downloadAheadSeconds = downloadAheadSeconds
        self.sessionTimeoutSeconds = sessionTimeoutSeconds
        self.crashGuardSeconds = crashGuardSeconds
        self.loading = loading
        self.assetLimits = assetLimits
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
        self.maxAssets = max(1, maxAssets)
        self.maxTotalBytes = max(1, maxTotalBytes)
    }

    /// The parameters `launch.*` describes, with `flag` for `launch.splash.enabled` (from
    /// `SplashFlag(resolution:)` to tell a too-old app apart). Throws when
    /// `launch.splash.configURL` is neither an http(s) URL nor a path.
    public init(config: ReelConfig, flag: SplashFlag? = nil) throws {
        let launch = config.launch
        let text = launch.splash.configURL.trimmingCharacters(in: .whitespaces)
        var url: URL?
        if !text.isEmpty {
            do {
                url = try InputLocation.parse(text)
            } catch let error as ReelError {
                throw ReelError(.invalidConfig, "launch.splash.configURL: \(error.message)")
            }
        }
        self.init(splashFlag: flag ?? SplashFlag(config: config), configurationURL: url,
                  configurationRefreshSeconds: Double(launch.splash.configRefreshMinutes) * 60,
                  downloadAheadSeconds: Double(launch.splash.downloadAheadHours) * 3600,
                  sessionTimeoutSeconds: Double(launch.sessionTimeoutMinutes) * 60,
                  crashGuardSeconds: Double(launch.crashGuardSeconds),
                  loading: LoadingAnimationPlan(cycleSeconds: launch.loading.cycleSeconds,
                                                postDelaySeconds: launch.loading.postDelaySeconds,
                                                fadeSeconds: launch.loading.fadeSeconds),
                  assetLimits: SplashAssetLimits(maxFPS: launch.splash.maxFPS, maxSeconds: launch.splash.maxSeconds,
                                                 maxBytes: launch.splash.maxBytes, checkMemoryBytes: launch.splash.checkMemoryMiB << 20,
                                                 checkSeconds: launch.splash.checkSeconds),
                  maxAssets: launch.splash.maxAssets, maxTotalBytes: launch.splash.maxTotalBytes)
    }

    /// The parameters of a resolved configuration, the splash flag's version included.
    public init(resolution: ConfigResolution) throws {
        try self.init(config: resolution.config, flag: SplashFlag(resolution: resolution))
    }
}
