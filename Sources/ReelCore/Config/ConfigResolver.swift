import Foundation
import OrderedCollections

/// Layers configuration: built-in defaults < each `ConfigSource` in order. Per key, the later layer
/// wins; a key absent from a layer keeps the value below. A versioned value
/// (`{"value": v, "minVersion": "x.y"}`) applies only when the effective `app.version` is at
/// least `minVersion`. Unknown keys are refused, each named with the nearest known key (the first
/// few; the rest are counted), whichever layer names them (a file, `--set`, `--compare`,
/// `--vary`): a misspelled key would otherwise run the defaults and look like a result. Unknown
/// keys, wrong types, out-of-range values and inconsistent thresholds are one `invalidConfig`
/// error listing them all.
public struct ConfigResolver: Sendable {
    public let schema: ConfigSchema
    /// 4 MiB: a configuration file holds a few hundred keys at most; a huge one would cost its
    /// size several times over in memory before a single key is read.
    public static let maxFileBytes = 4 << 20

    public init(schema: ConfigSchema = .reel) {
        self.schema = schema
    }

    /// Resolves the layers into the effective configuration.
    public func resolve(_ sources: [ConfigSource]) throws -> ConfigResolution {
        var unknown = UnknownKeys(schema: schema)
        var errors: [String] = []
        var layers: [[ConfigEntry]] = []
        for source in sources {
            layers.append(try entries(of: source, unknown: &unknown, errors: &errors))
        }
        errors += unknown.lines

        // app.version decides which versioned values apply, so it is settled first (and cannot
        // itself be versioned).
        var values = schema.defaults
        var origins: [String: String] = [:]
        for entry in layers.joined() where entry.key == "app.version" {
            if entry.minVersion != nil {
                errors.append("\(entry.layer): key 'app.version' cannot be versioned; give it as a plain string")
            } else if let value = validated(entry, errors: &errors) {
                values["app.version"] = value
                origins["app.version"] = entry.layer
            }
        }
        let appVersion = values["app.version"]?.string.flatMap(ReelVersion.init) ?? .current

        var skipped: [String] = []
        var skippedValues: [ConfigResolution.SkippedValue] = []
        for entry in layers.joined() where entry.key != "app.version" {
            guard let value = validated(entry, errors: &errors) else { continue }
            if let minVersion = entry.minVersion, appVersion < minVersion {
                skipped.append("\(entry.layer): '\(entry.key)' needs app version \(minVersion), have \(appVersion); kept \(JSONWriter.compact(values[entry.key] ?? .null))")
                skippedValues.append(.init(key: entry.key, value: value, minVersion: minVersion, layer: entry.layer))
                continue
            }
            values[entry.key] = value
            origins[entry.key] = entry.layer
        }
        guard errors.isEmpty else {
            throw ReelError(.invalidConfig, "invalid configuration: " + errors.joined(separator: "; "))
        }

        let config = try decode(values)
        let problems = config.consistencyProblems()
        guard problems.isEmpty else {
            throw ReelError(.invalidConfig, "inconsistent configuration: " + problems.joined(separator: "; "))
        }
        return ConfigResolution(config: config, origins: origins, skipped: skipped,
                                skippedValues: skippedValues)
    }

    /// Checks one entry's value against its key's type and rule.
    private func validated(_ entry: ConfigEntry, errors: inout [String]) -> JSONValue? {
        guard let info = schema.info(for: entry.key) else { return nil }
        let value: JSONValue?
        switch entry.raw {
        case .json(let json): value = info.validate(json)
        case .text(let text): value = info.validate(text: text)
        }
        if value == nil {
            errors.append("\(entry.layer): key '\(entry.key)' has value \(entry.shownValue); expected \(info.expected)")
        }
        return value
    }

    // MARK: Reading layers

    private func entries(of source: ConfigSource, unknown: inout UnknownKeys, errors: inout [String]) throws -> [ConfigEntry] {
        switch source {
        case .file(let path):
            let bytes = try FileBytes.read(path, what: "config file", code: .invalidConfig, maxBytes: Self.maxFileBytes)
            return try jsonEntries(bytes, layer: source.name, unknown: &unknown, errors: &errors)
        case .json(let text, let name):
            return try jsonEntries(Array(text.utf8), layer: name, unknown: &unknown, errors: &errors)
        case .assignments(let assignments, let option):
            var entries: [ConfigEntry] = []
            for assignment in assignments {
                if let entry = assignmentEntry(assignment, option: option, unknown: &unknown, errors: &errors) { entries.append(entry) }
            }
            return entries
        }
    }

    private func jsonEntries(_ bytes: [UInt8], layer: String, unknown: inout UnknownKeys, errors: inout [String]) throws -> [ConfigEntry] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: bytes)
        } catch {
            throw ReelError(.invalidConfig, "\(layer) is not valid JSON: \(error)")
        }
        guard case .object(let members) = document else {
            throw ReelError(.invalidConfig, "\(layer) must hold a JSON object of dotted keys, found \(document.kindDescription)")
        }
        var entries: [ConfigEntry] = []
        collect(members, prefix: "", layer: layer, into: &entries, unknown: &unknown, errors: &errors)
        return entries
    }

    /// Flattens an object of dotted keys; an object under a section name ("prefetch": {...}) is
    /// read as that section's keys.
    private func collect(
        _ members: OrderedDictionary<String, JSONValue>, prefix: String, layer: String,
        into entries: inout [ConfigEntry], unknown: inout UnknownKeys, errors: inout [String]
    ) {
        for (name, value) in members {
            let key = prefix + name
            if schema.contains(key) {
                if case .object(let fields) = value {
                    if let entry = versionedEntry(key: key, fields: fields, layer: layer, errors: &errors) { entries.append(entry) }
                } else {
                    entries.append(ConfigEntry(key: key, raw: .json(value), minVersion: nil, layer: layer))
                }
            } else if schema.sections.contains(key), case .object(let fields) = value {
                collect(fields, prefix: key + ".", layer: layer, into: &entries, unknown: &unknown, errors: &errors)
            } else {
                unknown.note(key, layer: layer, isObject: value.object != nil)
            }
        }
    }

    private func versionedEntry(key: String, fields: OrderedDictionary<String, JSONValue>, layer: String, errors: inout [String]) -> ConfigEntry? {
        guard let value = fields["value"] else {
            errors.append("\(layer): key '\(key)' has an object without \"value\"; expected a plain value or {\"value\": ..., \"minVersion\": \"x.y\"}")
            return nil
        }
        if let extra = fields.keys.first(where: { $0 != "value" && $0 != "minVersion" }) {
            errors.append("\(layer): key '\(key)' has unexpected field \"\(extra)\"; expected only \"value\" and \"minVersion\"")
            return nil
        }
        var minVersion: ReelVersion?
        if let raw = fields["minVersion"] {
            guard let text = raw.string, let version = ReelVersion(text) else {
                errors.append("\(layer): key '\(key)' has minVersion \(JSONWriter.compact(raw)); expected a version such as \"1.2\"")
                return nil
            }
            minVersion = version
        }
        return ConfigEntry(key: key, raw: .json(value), minVersion: minVersion, layer: layer)
    }

    private func assignmentEntry(_ assignment: String, option: String, unknown: inout UnknownKeys, errors: inout [String]) -> ConfigEntry? {
        guard let equals = assignment.firstIndex(of: "=") else {
            errors.append("\(option) '\(ShownText.oneLine(assignment))': expected key=value")
            return nil
        }
        let key = assignment[..<equals].trimmingCharacters(in: .whitespaces)
        let text = String(assignment[assignment.index(after: equals)...])
        guard schema.contains(key) else {
            unknown.note(key, layer: option, isObject: false)
            return nil
        }
        // A JSON object is the versioned form: --set 'k={"value": 3, "minVersion": "1.2"}'.
        if text.trimmingCharacters(in: .whitespaces).hasPrefix("{") {
            guard case .object(let fields)? = try? JSONParser.parse(text) else {
                errors.append("\(option): key '\(key)' has value '\(ShownText.oneLine(text))', which is not a JSON object; expected \(schema.info(for: key)!.expected)")
                return nil
            }
            return versionedEntry(key: key, fields: fields, layer: option, errors: &errors)
        }
        return ConfigEntry(key: key, raw: .text(text), minVersion: nil, layer: option)
    }

    // MARK: Building the value

    /// Builds the typed configuration from flat values through its `Codable` conformance.
    private func decode(_ values: OrderedDictionary<String, JSONValue>) throws -> ReelConfig {
        var root: OrderedDictionary<String, JSONValue> = [:]
        for (key, value) in values {
            Self.insert(value, at: key.split(separator: ".").map(String.init)[...], into: &root)
        }
        let decoder = JSONDecoder()
        decoder.userInfo[ConfigSchema.userInfoKey] = schema
        do {
            return try decoder.decode(ReelConfig.self, from: Data(JSONWriter.compact(.object(root)).utf8))
        } catch {
            throw ReelError(.internalFailure, "configuration values do not decode into ReelConfig", cause: error)
        }
    }

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into node: inout OrderedDictionary<String, JSONValue>) {
        guard let head = path.first else { return }
        if path.count == 1 {
            node[head] = value
            return
        }
        var child = node[head]?.object ?? [:]
        insert(value, at: path.dropFirst(), into: &child)
        node[head] = .object(child)
    }
}
