import ReelCore
import Testing

@Suite("JSON parser and writer")
struct JSONParserTests {
    @Test("objects keep key order and integers stay integers")
    func orderAndNumbers() throws {
        let value = try JSONParser.parse(#"{"b": 1, "a": 2.5, "c": [true, null, "x"], "d": -0, "e": 1e3}"#)
        #expect(value.keys == ["b", "a", "c", "d", "e"])
        #expect(value["b"] == .int(1))
        #expect(value["a"] == .double(2.5))
        #expect(value["c"] == .array([.bool(true), .null, .string("x")]))
        #expect(value["d"] == .int(0))
        #expect(value["e"] == .double(1000))
    }

    @Test("string escapes, including surrogate pairs")
    func escapes() throws {
        let value = try JSONParser.parse(#""a\"b\\c\nd\u00e9\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c\nd\u{e9}\u{1F600}"))
    }

    @Test("syntax errors name line and column")
    func errors() {
        do {
            _ = try JSONParser.parse("{\n  \"a\": 1,\n  \"b\" 2\n}")
            Issue.record("expected a syntax error")
        } catch {
            #expect(error.line == 3)
            #expect(error.reason.contains("':'"))
        }
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse("[1, 2") }
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse("01") }
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse("[1] x") }
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse("") }
    }

    @Test("NaN and Infinity only when allowed")
    func nonFinite() throws {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse("NaN") }
        let nan = try JSONParser.parse(#"{"y": NaN}"#, allowNonFinite: true)
        #expect(nan["y"]?.number?.isNaN == true)
        #expect(try JSONParser.parse("-Infinity", allowNonFinite: true) == .double(-.infinity))
    }

    @Test("writer output parses back to the same value")
    func roundTrip() throws {
        let text = #"{"z": [1, 2.25, "q\"\n", {"k": false}], "a": null, "n": -3}"#
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(JSONWriter.compact(value)) == value)
        #expect(try JSONParser.parse(JSONWriter.pretty(value)) == value)
        #expect(JSONWriter.compact(value) == #"{"z":[1,2.25,"q\"\n",{"k":false}],"a":null,"n":-3}"#)
        #expect(JSONWriter.number(.nan) == "null")
        #expect(JSONWriter.number(3) == "3")
    }

    /// Found by the JSON fuzz target: Double reads 1e400 as infinity, which the writer can only
    /// write as null, so a strict parse returned a value that did not survive a round trip.
    @Test("numbers beyond a double are refused, not read as infinity", arguments: ["1e400", "[-1E+309]", #"{"a": 2e999}"#])
    func outOfRangeNumbers(text: String) throws {
        for allowNonFinite in [false, true] {
            let error = try #require(throws: JSONParser.SyntaxError.self) {
                try JSONParser.parse(text, allowNonFinite: allowNonFinite)
            }
            #expect(error.reason.hasSuffix("is out of range"), "\(error)")
        }
        #expect(try JSONParser.parse("1e-400") == .double(0))
        #expect(try JSONParser.parse("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
    }

        @Test("reports encode non-finite numbers as null, keys in the type's order, slashes plain")
    func reportJSON() throws {
        struct Report: Encodable {
            var url = "http://h/a/b.m3u8"
            var ratio = Double.nan
            var p99 = Double.infinity
            var values = [1.5, -Double.infinity]
            var label = "\u{1}reel:non-finite"
        }
        let text = try ReportJSON.string(Report(), compact: true)
        #expect(text == #"{"url":"http://h/a/b.m3u8","ratio":null,"p99":null,"values":[1.5,null],"label":"\u0001reel:non-finite"}"#)
        let value = try JSONParser.parse(try ReportJSON.string(Report()))
        #expect(value["ratio"] == .null && value["values"] == .array([.double(1.5), .null]))
    }
}
