/// What the schema knows about one key: its dotted name, type, default, description and rule, and
/// how to read a value of its type from JSON or `--set` text.
public struct ConfigKeyInfo: Sendable {
    public let key: String
    /// "int", "number", "bool", "string" or "[string]".
    public let typeName: String
    let expectation: String
    public let defaultValue: JSONValue
    let help: StaticString
    public let rule: SettingRule
    let normalize: @Sendable (JSONValue) -> JSONValue?
    let parseText: @Sendable (String) -> JSONValue?

    /// The one-line description.
    public var description: String { help.description }

    /// What a valid value looks like: "an integer in 1...64".
    public var expected: String {
        guard let summary = rule.summary else { return expectation }
        return "\(expectation) \(summary)"
    }

    /// The value converted to the key's type and checked against its rule, or nil.
    public func validate(_ value: JSONValue) -> JSONValue? {
        guard let typed = normalize(value), rule.accepts(typed) else { return nil }
        return typed
    }

    /// The value read from `--set` text by the key's type and checked, or nil.
    public func validate(text: String) -> JSONValue? {
        guard let typed = parseText(text), rule.accepts(typed) else { return nil }
        return typed
    }
}
