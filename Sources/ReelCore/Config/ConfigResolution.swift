/// The effective configuration after layering, with the warnings to show (unknown keys) and where
/// each key's value came from.
public struct ConfigResolution: Sendable {
    public var config: ReelConfig
    /// Warnings for people, one line each.
    public var warnings: [String]
    /// The layer that set each key ("config file 'a.json'", "--set"); absent for defaults.
    public var origins: [String: String]
    /// Versioned values that did not apply because `app.version` is lower, one line each.
    public var skipped: [String]
}
