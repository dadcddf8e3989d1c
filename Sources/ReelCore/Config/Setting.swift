/// One configuration key: its value, declared with its default, a one-line description and a
/// rule, as in `@Setting("Downloads at once.", .range(1...64)) public var maxConcurrent = 2`.
/// The dotted key is the property path from `ReelConfig` ("prefetch.maxConcurrent").
@propertyWrapper
public struct Setting<Value: SettingValue>: Sendable {
    public var wrappedValue: Value
    /// The one-line description shown by `reel config defaults`.
    public let help: StaticString
    public let rule: SettingRule

    public init(wrappedValue: Value, _ help: StaticString, _ rule: SettingRule = .any) {
        self.wrappedValue = wrappedValue
        self.help = help
        self.rule = rule
    }
}

extension Setting: Equatable {
    public static func == (lhs: Setting, rhs: Setting) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }
}

extension Setting: Codable {
    /// Decodes the value and takes the description and rule from the schema the resolver passes
    /// in `userInfo`, so a decoded configuration describes itself like the defaults do.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Value.self)
        let key = decoder.codingPath.map(\.stringValue).joined(separator: ".")
        let info = (decoder.userInfo[ConfigSchema.userInfoKey] as? ConfigSchema)?.info(for: key)
        self.init(wrappedValue: value, info?.help ?? "", info?.rule ?? .any)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// A type-erased view of a `Setting`, for walking the configuration with `Mirror`.
protocol AnySetting {
    func info(key: String) -> ConfigKeyInfo
}

extension Setting: AnySetting {
    func info(key: String) -> ConfigKeyInfo {
        ConfigKeyInfo(
            key: key,
            typeName: Value.typeName,
            expectation: Value.expectation,
            defaultValue: wrappedValue.json,
            help: help,
            rule: rule,
            normalize: { json in Value(json: json)?.json },
            parseText: { text in Value(text: text)?.json }
        )
    }
}
