import OrderedCollections

/// Every configuration key with its type, default and description, in declaration order, read
/// once from a default `ReelConfig` by reflection.
public struct ConfigSchema: Sendable {
    /// The schema of `ReelConfig`.
    public static let reel = ConfigSchema(root: ReelConfig())

    static let userInfoKey = CodingUserInfoKey(rawValue: "reel.configSchema")!

    /// Every key, in declaration order.
    public let keys: [ConfigKeyInfo]
    private let byKey: [String: Int]
    /// Every section prefix ("prefetch", "prefetch.segments").
    public let sections: Set<String>

    init(root: some ConfigSection) {
        var keys: [ConfigKeyInfo] = []
        var sections: Set<String> = []
        Self.collect(root, path: [], keys: &keys, sections: &sections)
        self.keys = keys
        self.sections = sections
        var byKey: [String: Int] = [:]
        for (index, info) in keys.enumerated() { byKey[info.key] = index }
        self.byKey = byKey
    }

    private static func collect(_ section: Any, path: [String], keys: inout [ConfigKeyInfo], sections: inout Set<String>) {
        for child in Mirror(reflecting: section).children {
            guard var label = child.label else { continue }
            if label.hasPrefix("_") { label.removeFirst() }
            let childPath = path + [label]
            if let setting = child.value as? any AnySetting {
                keys.append(setting.info(key: childPath.joined(separator: ".")))
            } else if child.value is any ConfigSection {
                sections.insert(childPath.joined(separator: "."))
                collect(child.value, path: childPath, keys: &keys, sections: &sections)
            }
        }
    }

    public func info(for key: String) -> ConfigKeyInfo? {
        byKey[key].map { keys[$0] }
    }

    public func contains(_ key: String) -> Bool {
        byKey[key] != nil
    }

    /// The declared key closest to an unknown one, for "did you mean" warnings.
    public func nearestKey(to key: String) -> String? {
        nearest(to: key, among: keys.map(\.key))
    }

    /// The section name closest to `name` by edit distance (for a mistyped section object).
    public func nearestSection(to name: String) -> String? {
        nearest(to: name, among: Array(sections))
    }

    /// A key of `section`, to show as an example.
    public func firstKey(in section: String) -> String? {
        keys.first { $0.key.hasPrefix(section + ".") }?.key
    }

    private func nearest(to name: String, among candidates: [String]) -> String? {
        let lowered = name.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = EditDistance.between(lowered, candidate.lowercased())
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Every key with its default value, in declaration order.
    public var defaults: OrderedDictionary<String, JSONValue> {
        var values: OrderedDictionary<String, JSONValue> = [:]
        for info in keys { values[info.key] = info.defaultValue }
        return values
    }

    /// Every key as a JSON array of `{key, type, default, description}`, for `reel config defaults --json`.
    public var json: JSONValue {
        .array(keys.map { info in
            .object([
                "key": .string(info.key),
                "type": .string(info.typeName),
                "default": info.defaultValue,
                "description": .string(info.description),
            ])
        })
    }
}
