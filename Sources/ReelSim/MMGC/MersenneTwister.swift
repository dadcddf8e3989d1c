/// MT19937, the generator behind both numpy's legacy `RandomState` and CPython's `random`, with
/// the two ways they seed it and the draws the challenge's user model makes. Reproducing them
/// bit for bit is what lets `--user-seed` draw the same users the challenge's `run.py` would.
struct MersenneTwister: Sendable {
    private var state = [UInt32](repeating: 0, count: 624)
    private var index = 625

    /// numpy `RandomState.seed(n)` for an integer n (`init_genrand`).
    init(numpySeed seed: UInt32) {
        initialize(seed)
    }

    /// CPython `random.seed(n)` for a non-negative integer n (`init_by_array` over its 32-bit
    /// words, least significant first; `[0]` for 0).
    init(pythonSeed seed: UInt64) {
        var key: [UInt32] = []
        var rest = seed
        repeat {
            key.append(UInt32(truncatingIfNeeded: rest))
            rest >>= 32
        } while rest > 0
        initialize(byArray: key)
    }

    private mutating func initialize(_ seed: UInt32) {
        state[0] = seed
        for i in 1..<624 {
            state[i] = 1_812_433_253 &* (state[i - 1] ^ (state[i - 1] >> 30)) &+ UInt32(i)
        }
        index = 624
    }

    private mutating func initialize(byArray key: [UInt32]) {
        initialize(19_650_218)
        var i = 1, j = 0
        for _ in 0..<max(624, key.count) {
            state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) &* 1_664_525)) &+ key[j] &+ UInt32(j)
            i += 1
            j += 1
            if i >= 624 {
                state[0] = state[623]
                i = 1
            }
            if j >= key.count { j = 0 }
        }
        for _ in 0..<623 {
            state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) &* 1_566_083_941)) &- UInt32(i)
            i += 1
            if i >= 624 {
                state[0] = state[623]
                i = 1
            }
        }
        state[0] = 0x8000_0000
        index = 624
    }

    /// The next 32-bit output.
    mutating func next() -> UInt32 {
        if index >= 624 {
            for k in 0..<624 {
                let y = (state[k] & 0x8000_0000) | (state[(k + 1) % 624] & 0x7FFF_FFFF)
                state[k] = state[(k + 397) % 624] ^ (y >> 1) ^ (y & 1 == 1 ? 0x9908_B0DF : 0)
            }
            index = 0
        }
        var y = state[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C_5680
        y ^= (y << 15) & 0xEFC6_0000
        y ^= y >> 18
        return y
    }

    /// A double in [0, 1) from 53 random bits: numpy's `random_sample()` and CPython's `random()`.
    mutating func nextDouble() -> Double {
        let a = Double(next() >> 5), b = Double(next() >> 6)
        return (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// numpy's legacy `randint(high)`: a value in 0..<high by masked rejection.
    mutating func nextInt(below high: UInt32) -> UInt32 {
        precondition(high > 0)
        let range = high - 1
        var mask = range
        for shift in [1, 2, 4, 8, 16] as [UInt32] { mask |= mask >> shift }
        while true {
            let value = next() & mask
            if value <= range { return value }
        }
    }
}
