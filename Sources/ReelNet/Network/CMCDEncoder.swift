import Foundation
import ReelCore
import ReelManifest

/// Writes Common Media Client Data (CTA-5004) for one request: the requester's hints
/// (`DataSpec.cmcd`) with what the transfer engine knows (the session id, the measured
/// throughput), as the `CMCD` query argument or the four `CMCD-*` headers. The rules are the
/// specification's: keys in alphabetical order, strings quoted, tokens bare, a true boolean as
/// its key alone and a false one left out, `bl` rounded to 100 ms and `mtp` to 100 kbps; custom
/// keys carry a hyphenated prefix (`com.reel-prefetch`).
package struct CMCDEncoder: Sendable {
    package enum Mode: String, Sendable { case query, header }

    package let mode: Mode
    /// `sid`: one per transfer engine (a run) unless configured.
    package let sessionID: String

    package init(mode: Mode, sessionID: String) {
        self.mode = mode
        self.sessionID = sessionID
    }

    /// The encoder `network.cmcd.*` asks for, or nil when CMCD is off.
    package init?(_ settings: NetworkOptions.CMCD) {
        guard settings.enabled else { return nil }
        self.init(mode: Mode(rawValue: settings.mode) ?? .query,
                  sessionID: settings.sessionID.isEmpty ? UUID().uuidString.lowercased() : settings.sessionID)
    }

    /// The header each key travels in (CTA-5004 table 3); custom keys go with the request's.
    static let headers: [(name: String, keys: Set<String>)] = [
        ("CMCD-Object", ["br", "d", "ot", "tb"]),
        ("CMCD-Request", ["bl", "dl", "mtp", "nor", "nrr", "su"]),
        ("CMCD-Session", ["cid", "pr", "sf", "sid", "st", "v"]),
        ("CMCD-Status", ["bs", "rtp"]),
    ]

    /// One key and its value as written (nil value: a true boolean, the key alone).
    typealias Pair = (key: String, value: String?)

    /// The pairs for `spec`, in alphabetical order; `throughputKbps` is the meter's measured
    /// estimate (nil before any measurement).
    func pairs(for spec: DataSpec, throughputKbps: Int?) -> [Pair] {
        let hints = spec.cmcd ?? CMCDHints()
        var pairs: [Pair] = []
        func string(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            pairs.append((key, Self.quoted(value)))
        }
        func integer(_ key: String, _ value: Int?) { if let value { pairs.append((key, String(value))) } }
        func token(_ key: String, _ value: String?) { if let value { pairs.append((key, value)) } }
        func flag(_ key: String, _ value: Bool) { if value { pairs.append((key, nil)) } }
        integer("bl", hints.bufferMs.map { Self.rounded($0, to: 100) })
        integer("br", hints.bitrateKbps)
        flag("bs", hints.starved)
        string("cid", hints.contentID.map { String($0.prefix(64)) })
        token("com.reel-prefetch", hints.prefetch)
        integer("d", hints.durationMs)
        integer("mtp", throughputKbps.map { Self.rounded($0, to: 100) })
        string("nor", hints.nextObject)
        token("ot", (hints.objectType ?? Self.objectType(of: spec.kind)).rawValue)
        token("sf", hints.streamingFormat?.rawValue)
        string("sid", String(sessionID.prefix(64)))
        token("st", hints.streamType?.rawValue)
        flag("su", hints.startup)
        integer("tb", hints.topBitrateKbps)
        return pairs.sorted { $0.key < $1.key }
    }

    /// What a request without hints is, by the kind of resource.
    static func objectType(of kind: ResourceKind) -> CMCDHints.ObjectType {
        switch kind {
        case .playlist: .manifest
        case .initSection: .initSection
        case .segment, .media: .muxed
        case .key: .key
        case .image: .other
        }
    }

    /// `url` with the `CMCD` query argument (query mode), or unchanged.
    package func url(for spec: DataSpec, throughputKbps: Int?) -> URL {
        guard mode == .query, var components = URLComponents(url: spec.url, resolvingAgainstBaseURL: false) else { return spec.url }
        let payload = Self.joined(pairs(for: spec, throughputKbps: throughputKbps))
        let argument = "CMCD=" + Self.percentEncoded(payload)
        components.percentEncodedQuery = components.percentEncodedQuery.map { $0.isEmpty ? argument : $0 + "&" + argument } ?? argument
        return components.url ?? spec.url
    }

    /// The `CMCD-*` header lines (header mode; empty ones left out), or none.
    package func headerLines(for spec: DataSpec, throughputKbps: Int?) -> [String] {
        guard mode == .header else { return [] }
        let pairs = pairs(for: spec, throughputKbps: throughputKbps)
        return Self.headers.compactMap { header in
            let mine = pairs.filter { header.keys.contains($0.key) || (header.name == "CMCD-Request" && $0.key.contains("-")) }
            return mine.isEmpty ? nil : "\(header.name): \(Self.joined(mine))"
        }
    }

    static func joined(_ pairs: [Pair]) -> String {
        pairs.map { pair in pair.value.map { "\(pair.key)=\($0)" } ?? pair.key }.joined(separator: ",")
    }

    /// A string value: in double quotes, with `"` and `\` escaped.
    static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `value` rounded to the nearest multiple of `step`.
    static func rounded(_ value: Int, to step: Int) -> Int {
        Int((Double(value) / Double(step)).rounded()) * step
    }

    /// Percent-encoding as JavaScript's `encodeURIComponent` (what players use): all but
    /// letters, digits and `-_.!~*'()`.
    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-_.!~*'()")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
