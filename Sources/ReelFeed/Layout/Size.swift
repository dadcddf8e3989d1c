import ReelCore
/// A width and a height in points.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Parses "WxH" ("390x844") with positive numbers; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              width.isFinite, height.isFinite, width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }

    /// The device screen from `device.screenWidth` and `device.screenHeight`.
    public init(screenOf config: ReelConfig) {
        self.init(width: Double(config.device.screenWidth), height: Double(config.device.screenHeight))
    }

    public var description: String {
        "\(JSONWriter.number(width))x\(JSONWriter.number(height))"
    }
}
