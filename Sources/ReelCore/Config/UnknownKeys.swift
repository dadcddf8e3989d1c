import OrderedCollections

/// The refusals for names in configuration layers that are no key. The first `detailed` each
/// get a line naming the nearest known key or section (an edit distance against every one of
/// them); the rest are counted per layer and told in one line each, so that a file of millions
/// of unknown keys costs time linear in its size, not millions of suggestions.
struct UnknownKeys {
    /// Unknown keys that get a line of their own.
    static let detailed = 20
    /// Names longer than this (in bytes) get no suggestion, since the edit distance grows with the
    /// name's length and no key is nearly this long; they are shown cut.
    static let longestCompared = 100

    let schema: ConfigSchema
    private var detailedLines: [String] = []
    private var more: OrderedDictionary<String, Int> = [:]

    init(schema: ConfigSchema) {
        self.schema = schema
    }

    /// Notes `key`, found in `layer`; `isObject` when its value is an object (then it is
    /// compared with section names).
    mutating func note(_ key: String, layer: String, isObject: Bool) {
        if detailedLines.count < Self.detailed {
            detailedLines.append(line(key, layer: layer, isObject: isObject))
        } else {
            more[layer, default: 0] += 1
        }
    }

    /// One line per detailed key, then one per layer with more.
    var lines: [String] {
        detailedLines + more.map { layer, count in
            "\(layer): \(count) more unknown \(count == 1 ? "key" : "keys")"
        }
    }

    /// The line for a name that is not a key: a section given a plain value says so; an
    /// object under an unknown name is compared with section names, anything else with keys.
    private func line(_ key: String, layer: String, isObject: Bool) -> String {
        if schema.sections.contains(key) {
            let example = schema.firstKey(in: key).map { ", such as '\($0)'" } ?? ""
            return "\(layer): '\(key)' is a section, not a key; give its keys\(example), or an object of them"
        }
        let shown = ShownText.oneLine(key, limit: Self.longestCompared)
        guard key.utf8.count <= Self.longestCompared else { return "\(layer): unknown key '\(shown)'" }
        let section = schema.nearestSectionAndDistance(to: key)
        if isObject, let section {
            return "\(layer): unknown section '\(shown)' (nearest known section: '\(section.name)')"
        }
        // A mistyped section in a dotted key ('visiblity.x') is nearer a section than any key.
        let nearest: String
        let candidate = schema.nearestKeyAndDistance(to: key)
        if let candidate, let section, section.distance < candidate.distance {
            nearest = " (nearest known section: '\(section.name)')"
        } else {
            nearest = candidate.map { " (nearest known key: '\($0.name)')" } ?? ""
        }
        return "\(layer): unknown key '\(shown)'\(nearest)"
    }
}
