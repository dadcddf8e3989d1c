/// A constraint on a configuration value beyond its type, checked when a layer sets the key.
public enum SettingRule: Sendable {
    /// Any value of the key's type.
    case any
    /// A number between the bounds, both included.
    case between(Double, Double)
    /// A string from the list, or for `[string]` keys, each element from the list.
    case oneOf([String])
    /// A dotted version such as "1.2".
    case version
    /// An aspect ratio "height:width" of two positive numbers, or for `[string]` keys, each element.
    case ratio
    /// A string sent as an HTTP header value: no control characters, as CR or LF would end the
    /// header and let the rest of the value be sent as headers of its own.
    case headerValue

    /// An integer range, such as `.range(1...64)`.
    public static func range(_ range: ClosedRange<Int>) -> SettingRule {
        .between(Double(range.lowerBound), Double(range.upperBound))
    }

    /// An integer of at least `low`.
    public static func atLeast(_ low: Int) -> SettingRule {
        .between(Double(low), Double(Int.max))
    }

    /// A number of at least `low`.
    public static func atLeast(_ low: Double) -> SettingRule {
        .between(low, Double(Int.max))
    }

    /// A number range, such as `.range(0.0...1.0)`.
    public static func range(_ range: ClosedRange<Double>) -> SettingRule {
        .between(range.lowerBound, range.upperBound)
    }

    /// The rule in words, completing "expected <type> ..." in error messages.
    public var summary: String? {
        switch self {
        case .any: nil
        case .between(let low, let high) where high >= Double(Int.max):
            "of at least \(JSONWriter.number(low))"
        case .between(let low, let high):
            "in \(JSONWriter.number(low))...\(JSONWriter.number(high))"
        case .oneOf(let choices): "from " + choices.map { "\"\($0)\"" }.joined(separator: ", ")
        case .version: "of the form \"x.y\" (a version)"
        case .ratio: "of the form \"height:width\" (such as \"16:9\"), \(AspectRatio.rangeText)"
        case .headerValue: "without control characters such as CR or LF (it is sent as an HTTP header)"
        }
    }

    /// Whether a value (already of the key's type) satisfies the rule.
    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.any, _): return true
        case (.between(let low, let high), _):
            guard let number = value.number else { return false }
            return number >= low && number <= high
        case (.oneOf(let choices), .string(let string)): return choices.contains(string)
        case (.oneOf(let choices), .array(let elements)):
            return elements.allSatisfy { $0.string.map(choices.contains) ?? false }
        case (.version, .string(let string)): return ReelVersion(string) != nil
        case (.ratio, .string(let string)): return AspectRatio(string) != nil
        case (.ratio, .array(let elements)):
            return elements.allSatisfy { $0.string.flatMap(AspectRatio.init) != nil }
        case (.headerValue, .string(let string)):
            return !string.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        default: return false
        }
    }
}
