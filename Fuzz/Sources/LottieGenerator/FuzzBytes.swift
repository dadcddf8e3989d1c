/// Fuzz bytes read as a sequence of choices, so each mutation libFuzzer makes changes a structure
/// rather than breaking a syntax: past the end every choice is the first one.
public struct FuzzBytes {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isExhausted: Bool { index >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A number in `range` (ranges up to 65,536 values are spread evenly).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = range.upperBound - range.lowerBound
        guard span > 0 else { return range.lowerBound }
        let raw = span < 256 ? Int(byte()) : Int(byte()) << 8 | Int(byte())
        return range.lowerBound + raw % (span + 1)
    }

    public mutating func pick<T>(_ options: [T]) -> T {
        options[int(0...(options.count - 1))]
    }

    /// The first option three times in four, else any: a value that breaks something, but not
    /// so often that nothing gets past the first check.
    public mutating func mostlyFirst<T>(_ options: [T]) -> T {
        byte() < 192 ? options[0] : pick(options)
    }

    /// True about once in `n` choices (never past the end).
    public mutating func oneIn(_ n: Int) -> Bool {
        int(0...(n - 1)) == n - 1
    }
}
