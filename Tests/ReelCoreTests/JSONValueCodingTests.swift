import ReelCore
import Testing

/// Codable types to and from `JSONValue`: keys in declaration order, every optional written,
/// non-finite numbers as null, and decoding errors that name the field by its path.
@Suite("JSONValue coding")
struct JSONValueCodingTests {
    struct Inner: Codable, Equatable {
        var count: Int
        var share: Double?
    }

    struct Outer: Codable, Equatable {
        var name: String
        var inner: Inner
        var list: [Inner]
        var note: String?
        @NonNegative var bytes: Int64
    }

    static let sample = Outer(name: "a", inner: Inner(count: 2, share: nil), list: [Inner(count: 1, share: 0.5)],
                              note: nil, bytes: 7)

    @Test func encodesInDeclarationOrderWithEveryOptionalAsNull() throws {
        let text = JSONWriter.compact(try JSONValue(encoding: Self.sample))
        #expect(text == #"{"name":"a","inner":{"count":2,"share":null},"list":[{"count":1,"share":0.5}],"note":null,"bytes":7}"#)
        #expect(JSONWriter.compact(try JSONValue(encoding: Inner(count: 1, share: .nan))) == #"{"count":1,"share":null}"#)
    }

    @Test func roundTripsAndReadsAMissingOptionalAsNil() throws {
        #expect(try JSONValue(encoding: Self.sample).decode(Outer.self) == Self.sample)
        let missing = try JSONParser.parse(#"{"count": 3}"#)
        #expect(try missing.decode(Inner.self) == Inner(count: 3, share: nil))
    }

    @Test(arguments: [
        (#"{"name":"a","inner":{"count":"two"},"list":[],"bytes":1}"#, #""inner.count" must be a whole number, found a string"#),
        (#"{"name":"a","inner":{"count":2.5},"list":[],"bytes":1}"#, #""inner.count" must be a whole number in range"#),
        (#"{"name":"a","inner":{"count":1},"list":[{"share":1}],"bytes":1}"#, #"missing "list[0].count""#),
        (#"{"name":"a","inner":{"count":1},"list":[],"bytes":-4}"#, #""bytes": must not be negative, found -4"#),
        (#"{"inner":{"count":1},"list":[],"bytes":1}"#, #"missing "name""#),
        (#"[1]"#, "expected an object, found an array"),
    ])
    func aBadFieldIsNamedByItsPath(json: String, message: String) throws {
        let error = #expect(throws: ReelError.self) { try JSONParser.parse(json).decode(Outer.self) }
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }
}
