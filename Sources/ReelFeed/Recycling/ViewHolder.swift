import ReelCore
/// A reusable view for one widget type, as a recycling list keeps them: "short#0", "carousel#2".
public struct ViewHolder: Sendable, Hashable, CustomStringConvertible {
    public let type: WidgetType
    /// Creation order within the type.
    public let number: Int

    public init(type: WidgetType, number: Int) {
        self.type = type
        self.number = number
    }

    public var description: String { "\(type.rawValue)#\(number)" }
}
