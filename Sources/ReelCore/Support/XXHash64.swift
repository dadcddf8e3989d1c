/// XXH64 (Yann Collet's xxHash, 64-bit), streaming: the cache's content checksum and the hash
/// that names content files. Chosen over SHA-256 because it runs at memory speed with no extra
/// package, and a cryptographic hash would add nothing here: the checksum guards against
/// accidental damage (torn writes, truncation, flipped bits), where 64 bits leave a 2^-64 chance
/// of a miss, and whoever can forge a content file can also rewrite the index row holding its
/// checksum. File names need no collision resistance either: the index maps each key to its
/// file and a clash is detected there and resolved with another seed.
public struct XXHash64: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private let seed: UInt64
    private var v1, v2, v3, v4: UInt64
    private var total: UInt64 = 0
    /// Up to 31 bytes waiting for a whole 32-byte stripe.
    private var pending: [UInt8] = []

    public init(seed: UInt64 = 0) {
        self.seed = seed
        v1 = seed &+ Self.prime1 &+ Self.prime2
        v2 = seed &+ Self.prime2
        v3 = seed
        v4 = seed &- Self.prime1
        pending.reserveCapacity(32)
    }

    /// The hash of `bytes` in one go.
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hasher = XXHash64(seed: seed)
        hasher.update(bytes)
        return hasher.digest()
    }

    public static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }

    public static func hash(_ text: String, seed: UInt64 = 0) -> UInt64 {
        hash(Array(text.utf8), seed: seed)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        total &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(32 - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            offset = take
            guard pending.count == 32 else { return }
            pending.withUnsafeBytes { consumeStripes($0.baseAddress!, count: 32) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - offset) / 32 * 32
        if whole > 0 { consumeStripes(base + offset, count: whole) }
        offset += whole
        if offset < bytes.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset))
        }
    }

    /// The hash of everything passed to `update` so far (the hasher can go on afterwards).
    public func digest() -> UInt64 {
        var h: UInt64
        if total >= 32 {
            h = Self.rotl(v1, 1) &+ Self.rotl(v2, 7) &+ Self.rotl(v3, 12) &+ Self.rotl(v4, 18)
            h = Self.merge(h, v1)
            h = Self.merge(h, v2)
            h = Self.merge(h, v3)
            h = Self.merge(h, v4)
        } else {
            h = seed &+ Self.prime5
        }
        h &+= total
        pending.withUnsafeBytes { tail in
            var index = 0
            while index + 8 <= tail.count {
                let k1 = Self.round(0, UInt64(littleEndian: tail.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                h ^= k1
                h = Self.rotl(h, 27) &* Self.prime1 &+ Self.prime4
                index += 8
            }
            if index + 4 <= tail.count {
                h ^= UInt64(UInt32(littleEndian: tail.loadUnaligned(fromByteOffset: index, as: UInt32.self))) &* Self.prime1
                h = Self.rotl(h, 23) &* Self.prime2 &+ Self.prime3
                index += 4
            }
            while index < tail.count {
                h ^= UInt64(tail[index]) &* Self.prime5
                h = Self.rotl(h, 11) &* Self.prime1
                index += 1
            }
        }
        h ^= h >> 33
        h &*= Self.prime2
        h ^= h >> 29
        h &*= Self.prime3
        h ^= h >> 32
        return h
    }

    private mutating func consumeStripes(_ base: UnsafeRawPointer, count: Int) {
        var a = v1, b = v2, c = v3, d = v4
        var offset = 0
        while offset < count {
            a = Self.round(a, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            b = Self.round(b, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            c = Self.round(c, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
            d = Self.round(d, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
            offset += 32
        }
        v1 = a; v2 = b; v3 = c; v4 = d
    }

    @inline(__always) private static func rotl(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* prime2, 31) &* prime1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
        (acc ^ round(0, value)) &* prime1 &+ prime4
    }
}
