import ReelCore

/// The splash feature flag, `launch.splash.enabled`, as the configuration layers left it. The flag
/// is meant to be versioned (`{"value": true, "minVersion": "24.0"}`): the layers compare it
/// with `app.version` and drop it when the app is older, which this type tells apart from off.
public enum SplashFlag: Sendable, Hashable {
    case on
    case off
    /// A layer turns splashes on from version `needs`; the app is `have`.
    case versionTooOld(needs: ReelVersion, have: ReelVersion)

    /// The flag from the effective configuration, without knowing about dropped values.
    public init(config: ReelConfig) {
        self = config.launch.splash.enabled ? .on : .off
    }

    /// The flag from a resolution: off because of a version when the last layer that turned it
    /// on was dropped for needing a higher `app.version`.
    public init(resolution: ConfigResolution) {
        let config = resolution.config
        if config.launch.splash.enabled {
            self = .on
        } else if let dropped = resolution.skippedValues.last(where: {
            $0.key == "launch.splash.enabled" && $0.value == .bool(true)
        }) {
            self = .versionTooOld(needs: dropped.minVersion, have: config.appVersion)
        } else {
            self = .off
        }
    }
}
