import ReelCore
import ReelNet
import Testing

@Suite("XXH64 checksums")
struct XXHash64Tests {
    /// The reference implementation's published values (seed 0).
    @Test(arguments: [
        ("", UInt64(0xEF46_DB37_51D8_E999)),
        ("a", 0xD24E_C4F1_A98C_6E5B),
        ("abc", 0x44BC_2CF5_AD77_0999),
        ("Nobody inspects the spammish repetition", 0xFBCE_A83C_8A37_8BF1),
    ])
    func knownValues(text: String, expected: UInt64) {
        #expect(XXHash64.hash(text) == expected)
    }

    @Test func streamingMatchesOneShotForEveryChunking() {
        var random = SeededRandom(seed: 7)
        let bytes = (0..<10_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let whole = XXHash64.hash(bytes)
        for chunk in [1, 3, 7, 31, 32, 33, 64, 1000, 4096] {
            var hasher = XXHash64()
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                hasher.update(Array(bytes[offset..<end]))
                offset = end
            }
            #expect(hasher.digest() == whole, "chunk \(chunk)")
        }
    }

    @Test func aFlippedBitChangesTheHash() {
        var bytes = [UInt8](repeating: 0x42, count: 100_000)
        let before = XXHash64.hash(bytes)
        bytes[54_321] ^= 0x01
        #expect(XXHash64.hash(bytes) != before)
    }
}
