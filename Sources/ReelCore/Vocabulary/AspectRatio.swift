import Foundation

/// An aspect ratio written "height:width", as the feed data file writes it: "16:9" is a portrait
/// video nine wide and sixteen high.
public struct AspectRatio: Sendable, Hashable, CustomStringConvertible {
    public let height: Double
    public let width: Double

    public init?(height: Double, width: Double) {
        guard height.isFinite, width.isFinite, height > 0, width > 0 else { return nil }
        self.height = height
        self.width = width
    }

    /// Parses "H:W" with positive finite numbers; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let height = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let width = Double(parts[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        self.init(height: height, width: width)
    }

    /// Height divided by width.
    public var heightPerWidth: Double { height / width }

    public var description: String {
        "\(JSONWriter.number(height)):\(JSONWriter.number(width))"
    }
}
