/// The effective configuration after layering, where each key's value came from, and the
/// versioned values that did not apply.
public struct ConfigResolution: Sendable {
    public var config: ReelConfig
    /// The layer that set each key ("config file 'a.json'", "--set"); absent for defaults.
    public var origins: [String: String]
    /// Versioned values that did not apply because `app.version` is lower, one line each.
    public var skipped: [String]
    /// The same values as data, in layer order: a versioned feature flag left off because the app
    /// is too old can say so (`launch.splash.enabled`).
    public var skippedValues: [SkippedValue] = []

    /// A versioned value that did not apply: the key, the value and the version it needs.
    public struct SkippedValue: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        public var minVersion: ReelVersion
        public var layer: String
    }
}
