import Foundation

/// The Common Media Client Data (CTA-5004) a request carried, as the CDN reads it: from the
/// `CMCD` query argument or the `CMCD-Object`, `-Request`, `-Session` and `-Status` headers. Its
/// own parser, written from the specification and independent of any client's encoder: the
/// simulator bills bytes by what the client said they were for (`purpose`).
package struct CMCDData: Sendable, Hashable, Codable {
    /// A key's value: a number, a string (it came quoted), a token, or true (the key alone).
    package enum Value: Sendable, Hashable, Codable {
        case number(Double)
        case string(String)
        case token(String)
        case bool(Bool)

        package var number: Double? { if case .number(let value) = self { value } else { nil } }
        package var text: String? {
            switch self {
            case .string(let value), .token(let value): value
            default: nil
            }
        }
    }

    /// Where the data came from.
    package enum Transport: String, Sendable, Hashable, Codable { case query, header }

    package var transport: Transport
    package var values: [String: Value]
    /// For header transport, the header each key came in ("CMCD-Object").
    package var headerOf: [String: String]
    /// The keys in the order they were written, per header (or the query's one list).
    package var order: [[String]]
    /// Items that could not be read (a bad key, an unterminated string), as written.
    package var malformed: [String]

    package subscript(key: String) -> Value? { values[key] }

    /// The data of a request, or nil when it carries none. Both transports on one request are
    /// read together (the query's keys win).
    package init?(uri: String, headers: [(name: String, value: String)]) {
        var values: [String: Value] = [:], headerOf: [String: String] = [:], order: [[String]] = [], malformed: [String] = []
        var transport: Transport?
        for (name, value) in headers {
            let lower = name.lowercased()
            guard ["cmcd-object", "cmcd-request", "cmcd-session", "cmcd-status"].contains(lower) else { continue }
            transport = .header
            let canonical = "CMCD-" + lower.dropFirst(5).prefix(1).uppercased() + lower.dropFirst(6)
            let (items, bad) = Self.items(value)
            malformed += bad
            order.append(items.map(\.key))
            for (key, item) in items {
                values[key] = item
                headerOf[key] = canonical
            }
        }
        if let query = Self.queryArgument(uri) {
            transport = .query
            let (items, bad) = Self.items(query)
            malformed += bad
            order.append(items.map(\.key))
            for (key, item) in items { values[key] = item }
        }
        guard let transport else { return nil }
        self.transport = transport
        self.values = values
        self.headerOf = headerOf
        self.order = order
        self.malformed = malformed
    }

    /// What the client said the bytes were for: a `prefetch` (Reel's `com.reel-prefetch`
    /// marker), a `startup` (`su`), else `playback`.
    package var purpose: Purpose {
        if values["com.reel-prefetch"] != nil { return .prefetch }
        if values["su"] == .bool(true) { return .startup }
        return .playback
    }

    package enum Purpose: String, Sendable, Hashable, Codable, CaseIterable {
        case startup, playback, prefetch
        /// A request without CMCD.
        case unlabeled
    }

    /// The `CMCD` argument of a request target, percent-decoded.
    static func queryArgument(_ uri: String) -> String? {
        guard let question = uri.firstIndex(of: "?") else { return nil }
        var query = uri[uri.index(after: question)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        for argument in query.split(separator: "&") where argument.hasPrefix("CMCD=") {
            return String(argument.dropFirst(5)).replacingOccurrences(of: "+", with: "%20").removingPercentEncoding
        }
        return nil
    }

    /// The `key[=value]` items of a comma-separated list (commas inside a quoted string do not
    /// split it), and the items that are not well formed.
    static func items(_ text: String) -> (items: [(key: String, value: Value)], malformed: [String]) {
        var items: [(String, Value)] = [], malformed: [String] = []
        var current = "", quoted = false, escaped = false
        var parts: [String] = []
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && quoted {
                current.append(character)
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                current.append(character)
            } else if character == "," && !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        for part in parts.map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            guard let (key, value) = item(part) else {
                malformed.append(part)
                continue
            }
            items.append((key, value))
        }
        return (items, malformed)
    }

    /// One item: a key of lower-case letters (a custom one with a hyphenated prefix), alone
    /// (true) or with a number, a quoted string or a token.
    static func item(_ part: String) -> (String, Value)? {
        let key: String, raw: String?
        if let equals = part.firstIndex(of: "=") {
            key = String(part[..<equals])
            raw = String(part[part.index(after: equals)...])
        } else {
            key = part
            raw = nil
        }
        let keyCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789.-")
        guard !key.isEmpty, key.unicodeScalars.allSatisfy(keyCharacters.contains), key.first!.isLetter else { return nil }
        guard let raw else { return (key, .bool(true)) }
        if raw.hasPrefix("\"") {
            guard raw.count >= 2, raw.hasSuffix("\""), !raw.hasSuffix("\\\"") || raw.hasSuffix("\\\\\"") else { return nil }
            var value = "", escaped = false
            for character in raw.dropFirst().dropLast() {
                if escaped {
                    value.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    value.append(character)
                }
            }
            return (key, .string(value))
        }
        if let number = Double(raw), raw.first.map({ $0.isNumber || $0 == "-" }) == true { return (key, .number(number)) }
        guard !raw.isEmpty, !raw.contains("\"") else { return nil }
        return (key, .token(raw))
    }
}
