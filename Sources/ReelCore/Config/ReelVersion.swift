/// A dotted numeric version ("1", "1.2", "1.2.3"), compared component by component with missing
/// components read as zero, so "1.2" == "1.2.0" < "1.10".
public struct ReelVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Reel's own version: the default of `app.version`.
    public static let current = ReelVersion(components: [0, 1, 0])

    public let components: [Int]

    public init(components: [Int]) {
        self.components = components
    }

    /// Parses "x", "x.y" or "x.y.z..." of non-negative integers; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 8 else { return nil }
        var components: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber), let value = Int(part) else { return nil }
            components.append(value)
        }
        self.components = components
    }

    public var description: String {
        components.map(String.init).joined(separator: ".")
    }

    public static func < (lhs: ReelVersion, rhs: ReelVersion) -> Bool {
        let count = max(lhs.components.count, rhs.components.count)
        for index in 0..<count {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    public static func == (lhs: ReelVersion, rhs: ReelVersion) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    public func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }
}
