/// Uniform draws in [0, 1) derived from (seed, path, request index, draw number) alone:
/// FNV-1a over the path, mixed with SplitMix64, so decisions are reproducible across runs.
struct FaultDice: Sendable {
    private let base: UInt64

    init(seed: UInt64, path: String, requestIndex: Int) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        base = Self.mix(Self.mix(seed ^ hash) ^ UInt64(bitPattern: Int64(requestIndex)))
    }

    /// The `draw`-th independent uniform number for this request.
    func roll(_ draw: UInt64) -> Double {
        let bits = Self.mix(base &+ (draw &+ 1) &* 0x9e37_79b9_7f4a_7c15)
        return Double(bits >> 11) * 0x1.0p-53
    }

    /// SplitMix64's finaliser: a bijective mix of all 64 bits.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
