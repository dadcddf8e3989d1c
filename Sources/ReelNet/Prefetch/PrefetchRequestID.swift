/// Names one request to a `Prefetcher` (returned by `enqueue`), for `cancel` and `reprioritize`
/// and in every `PrefetchEvent`. Numbered from 1 in enqueue order; never reused by a prefetcher.
public struct PrefetchRequestID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var value: UInt64

    public init(_ value: UInt64) { self.value = value }

    public static func < (a: PrefetchRequestID, b: PrefetchRequestID) -> Bool { a.value < b.value }

    public var description: String { "#\(value)" }
}
