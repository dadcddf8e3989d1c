/// SplitMix64: a small deterministic generator, so merch placement and dummy texts are the same
/// for the same seed on every platform (the standard library's generator is not seedable).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// A generator for one position of a stream, independent of the order positions are drawn in.
    public init(seed: Int, stream: UInt64, position: Int) {
        state = Self.mix(UInt64(bitPattern: Int64(seed)) &+ Self.mix(stream &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(bitPattern: Int64(position))))
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniform number in [0, 1).
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// An element of a non-empty array.
    public mutating func pick<T>(_ elements: [T]) -> T {
        elements[Int(next() % UInt64(elements.count))]
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
