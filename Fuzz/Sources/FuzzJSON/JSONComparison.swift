import OrderedCollections
import ReelCore

/// Equality of JSON values as a reader sees them: numbers by value, so that the writer may
/// spell `2.0` as `2`.
enum JSONComparison {
    static func same(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case (.object(let left), .object(let right)):
            return left.keys.elementsEqual(right.keys)
                && zip(left.values, right.values).allSatisfy { same($0, $1) }
        default:
            if let left = lhs.number, let right = rhs.number { return left == right }
            return lhs == rhs
        }
    }
}
