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
    /// Keys and sections sorted, with their lower-cased bytes, for "did you mean" searches.
    private let keyCandidates: [Candidate]
    private let sectionCandidates: [Candidate]

    /// A name to suggest, with the bytes it is compared by.
    private struct Candidate: Sendable {
        let name: String
        let folded: [UInt8]

        init(_ name: String) {
            self.name = name
            folded = Array(name.lowercased().utf8)
        }
    }

    init(root: some ConfigSection) {
        var keys: [ConfigKeyInfo] = []
        var sections: Set<String> = []
        Self.collect(root, path: [], keys: &keys, sections: &sections)
        self.keys = keys
        self.sections = sections
        var byKey: [String: Int] = [:]
        for (index, info) in keys.enumerated() { byKey[info.key] = index }
        self.byKey = byKey
        keyCandidates = keys.map(\.key).sorted().map(Candidate.init)
        sectionCandidates = sections.sorted().map(Candidate.init)
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
        nearestKeyAndDistance(to: key)?.name
    }

    /// The section name closest to `name` by edit distance (for a mistyped section object).
    public func nearestSection(to name: String) -> String? {
        nearestSectionAndDistance(to: name)?.name
    }

    /// The nearest key and its edit distance (case folded).
    func nearestKeyAndDistance(to key: String) -> (name: String, distance: Int)? {
        nearest(to: key, among: keyCandidates)
    }

    /// The nearest section and its edit distance (case folded).
    func nearestSectionAndDistance(to name: String) -> (name: String, distance: Int)? {
        nearest(to: name, among: sectionCandidates)
    }

    /// A key of `section`, to show as an example.
    public func firstKey(in section: String) -> String? {
        keys.first { $0.key.hasPrefix(section + ".") }?.key
    }

    /// The first candidate (in sorted order) at the smallest distance; each comparison stops as
    /// soon as it cannot beat the best so far.
    private func nearest(to name: String, among candidates: [Candidate]) -> (name: String, distance: Int)? {
        let folded = Array(name.lowercased().utf8)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let limit = best.map { $0.distance - 1 } ?? Int.max
            if limit < 0 { break }
            if let distance = EditDistance.between(folded, candidate.folded, limit: limit) {
                best = (candidate.name, distance)
            }
        }
        return best
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
