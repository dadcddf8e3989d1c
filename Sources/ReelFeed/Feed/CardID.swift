import ReelCore
/// A stable id in the feed, typed by what it names so a widget's id never stands where a
/// card's is expected: written and read as its plain string.
public struct FeedID<Kind>: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }
    public static func < (lhs: FeedID, rhs: FeedID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What `CardID` names.
public enum CardIDKind {}
/// What `WidgetID` names.
public enum WidgetIDKind {}

/// A card's id ("s0/0", "c3/2"): the widget's id, a slash, the card's index.
public typealias CardID = FeedID<CardIDKind>
/// A widget's id ("s0", "c3", "m7").
public typealias WidgetID = FeedID<WidgetIDKind>
