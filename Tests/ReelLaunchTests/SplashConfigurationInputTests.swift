import Foundation
import ReelCore
import ReelLaunch
import ReelSplash
import Testing

/// The splash configuration as services really write it: numbers as strings (the seed documents
/// `"displayTimeInterval": "display time interval in mins"`), dates that do not exist, and text
/// that would break a warning line.
@Suite("Splash configuration input")
struct SplashConfigurationInputTests {
    static let base = URL(string: "https://cdn.example/launch/splash-config.json")!

    func parse(_ splashes: [String]) throws -> (configuration: SplashConfiguration, warnings: [String]) {
        let text = #"{"holidaySplash": ["# + splashes.joined(separator: ",") + "]}"
        return try SplashConfigurationParser.parse(Array(text.utf8), url: Self.base, fetchedAt: date("2026-11-24T00:00:00Z"))
    }

    func splash(_ id: String, start: String = "2026-11-20T00:00:00Z", end: String = "2026-12-01T00:00:00Z", asset: String = "a.json",
                _ extra: String = "") -> String {
        #"{"id": "\#(id)", "startDateTime": "\#(start)", "endDateTime": "\#(end)", "assetUrl": "\#(asset)"\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    @Test func numbersMayComeAsStrings() throws {
        let (configuration, warnings) = try parse([
            splash("ten-hours", #""displayTimeInterval": "600", "priority": "2""#),
            splash("half-minute", #""displayTimeInterval": "0.5", "priority": " -1 ""#),
            splash("number", #""displayTimeInterval": 15, "priority": 3"#),
            splash("exponent", #""displayTimeInterval": "1e2""#),
            splash("seed-text", #""displayTimeInterval": "display time interval in mins""#),
            splash("hex", #""displayTimeInterval": "0x10""#),
            splash("infinite", #""displayTimeInterval": "inf""#),
            splash("negative", #""displayTimeInterval": "-5""#),
            splash("fraction", #""priority": "1.5""#),
            splash("word", #""priority": "first""#),
        ])
        let byID = Dictionary(uniqueKeysWithValues: configuration.entries.map { ($0.id, $0) })
        #expect(byID.keys.sorted() == ["exponent", "half-minute", "number", "ten-hours"])
        #expect(byID["ten-hours"]?.displayIntervalMinutes == 600 && byID["ten-hours"]?.priority == 2)
        #expect(byID["half-minute"]?.displayIntervalMinutes == 0.5 && byID["half-minute"]?.priority == -1)
        #expect(byID["number"]?.displayIntervalMinutes == 15 && byID["number"]?.priority == 3)
        #expect(byID["exponent"]?.displayIntervalMinutes == 100)
        let expected = [
            #"splash 'seed-text' (entry 4) skipped: displayTimeInterval "display time interval in mins" is not a number of minutes (0 or more)"#,
            #"splash 'hex' (entry 5) skipped: displayTimeInterval "0x10" is not a number of minutes (0 or more)"#,
            #"splash 'infinite' (entry 6) skipped: displayTimeInterval "inf" is not a number of minutes (0 or more)"#,
            #"splash 'negative' (entry 7) skipped: displayTimeInterval "-5" is not a number of minutes (0 or more)"#,
            #"splash 'fraction' (entry 8) skipped: priority "1.5" is not an integer"#,
            #"splash 'word' (entry 9) skipped: priority "first" is not an integer"#,
        ]
        #expect(warnings == expected.map { "splash configuration '\(Self.base.absoluteString)': " + $0 }, "\(warnings)")
    }

    @Test func daysAndOffsetsThatDoNotExistAreRefused() throws {
        let (configuration, warnings) = try parse([
            splash("feb-30", start: "2026-02-30T00:00:00Z"),
            splash("apr-31", end: "2026-04-31T00:00:00Z"),
            splash("feb-29-2027", start: "2027-02-29T00:00:00Z", end: "2027-03-01T00:00:00Z"),
            splash("offset-99", start: "2026-11-20T00:00:00+99:99"),
            splash("offset-24", start: "2026-11-20T00:00:00+24:00"),
            splash("minutes-60", start: "2026-11-20T00:00:00-05:60"),
            splash("leap-day", start: "2028-02-29T00:00:00Z", end: "2028-03-01T00:00:00+14:00"),
        ])
        #expect(configuration.entries.map(\.id) == ["leap-day"])
        #expect(configuration.entries.first?.end == date("2028-02-29T10:00:00Z"))
        #expect(warnings.count == 6, "\(warnings)")
        #expect(warnings.allSatisfy { $0.contains("is not an ISO 8601 date") }, "\(warnings)")
        #expect(warnings.first?.hasSuffix("splash 'feb-30' (entry 0) skipped: startDateTime '2026-02-30T00:00:00Z' is not an ISO 8601 date") == true)
    }

    @Test func controlCharactersNeverReachAWarningLine() throws {
        let (_, warnings) = try parse([
            splash("forged", asset: #"a.json\r\nwarning: everything is fine"#),
            splash(#"nul\u0000id"#, start: "yesterday"),
            splash("bad-url", asset: #"http://[::1\nx"#),
        ])
        #expect(warnings.count == 3, "\(warnings)")
        for warning in warnings {
            #expect(!warning.unicodeScalars.contains { $0.value < 0x20 }, "a control character in \(warning.debugDescription)")
        }
        #expect(warnings[0].contains(#"splash 'forged' (entry 0) skipped: assetUrl 'a.json\r\nwarning: everything is fine'"#), "\(warnings[0])")
        #expect(warnings[1].contains(#"splash 'nul\0id' (entry 1) skipped"#), "\(warnings[1])")
        #expect(warnings[2].contains(#"assetUrl 'http://[::1\nx'"#), "\(warnings[2])")
    }
}
