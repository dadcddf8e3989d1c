import Foundation

/// An aspect ratio written "height:width", as the feed data file writes it: "16:9" is a portrait
/// video nine wide and sixteen high. Between 1:10 and 10:1 (`heightPerWidthRange`).
public struct AspectRatio: Sendable, Hashable, CustomStringConvertible {
    public let height: Double
    public let width: Double

    /// The sane range of height over width: from 1:10 (a strip ten times wider than high) to
    /// 10:1. Beyond it is no video a feed shows, and a card laid out at such a ratio would be
    /// thousands of screens high or under a pixel ("1e308:1").
    public static let heightPerWidthRange: ClosedRange<Double> = 0.1...10

    /// The ratio "the sane range" reads as in messages.
    public static let rangeText = "between 1:10 and 10:1"

    /// Nil unless both are positive and finite and their ratio is within `heightPerWidthRange`.
    public init?(height: Double, width: Double) {
        guard height.isFinite, width.isFinite, height > 0, width > 0,
              Self.heightPerWidthRange.contains(height / width) else { return nil }
        self.height = height
        self.width = width
    }

    /// Parses "H:W" with positive finite numbers whose ratio is within `heightPerWidthRange`;
    /// nil for anything else.
    public init?(_ text: String) {
        guard let numbers = Self.numbers(text) else { return nil }
        self.init(height: numbers.height, width: numbers.width)
    }

    /// The two numbers of "H:W" when both are positive and finite, whatever their ratio (to tell
    /// a ratio out of range from one that is not a ratio).
    public static func numbers(_ text: String) -> (height: Double, width: Double)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let height = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let width = Double(parts[1].trimmingCharacters(in: .whitespaces)),
              height.isFinite, width.isFinite, height > 0, width > 0
        else { return nil }
        return (height, width)
    }

    /// Height divided by width.
    public var heightPerWidth: Double { height / width }

    public var description: String {
        "\(JSONWriter.number(height)):\(JSONWriter.number(width))"
    }
}
