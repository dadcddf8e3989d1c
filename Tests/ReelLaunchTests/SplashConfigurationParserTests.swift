import Foundation
import ReelCore
import ReelLaunch
import ReelSplash
import Testing

/// Reading the splash configuration: good splashes kept, bad ones skipped with a warning naming
/// them and why, a document that is not a configuration refused whole.
@Suite("Splash configuration")
struct SplashConfigurationParserTests {
    static let base = URL(string: "https://cdn.example/launch/splash-config.json")!

    func parse(_ text: String, base: URL = base) throws -> (configuration: SplashConfiguration, warnings: [String]) {
        try SplashConfigurationParser.parse(Array(text.utf8), url: base, fetchedAt: date("2026-11-24T00:00:00Z"))
    }

    @Test func theSamplesConfigurationHasThreeOverlappingSplashes() throws {
        let bytes = try LaunchSamples.bytes("splash-config.json")
        let (configuration, warnings) = try SplashConfigurationParser.parse(bytes, url: Self.base, fetchedAt: date("2026-11-24T00:00:00Z"))
        #expect(warnings.isEmpty)
        #expect(configuration.entries.map(\.id) == ["snowfall", "lanterns", "black-friday"])
        let moment = date("2026-11-28T12:00:00Z")
        #expect(configuration.entries.allSatisfy { $0.isOpen(at: moment) })
        let lanterns = try #require(configuration.entries.first { $0.id == "lanterns" })
        #expect(lanterns.assetURL == "https://cdn.example/launch/lanterns.json")
        #expect(lanterns.displayIntervalMinutes == 1440)
        #expect(lanterns.priority == 2)
        #expect(lanterns.name == "Festival of lanterns")
    }

    @Test func badSplashesAreSkippedWithAWarningNamingThem() throws {
        let text = """
            {"holidaySplash": [
              {"id": "good", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "good.json"},
              {"id": "backwards", "startDateTime": "2026-12-01T00:00:00Z", "endDateTime": "2026-11-01T00:00:00Z", "assetUrl": "a.json"},
              {"id": "empty-window", "startDateTime": "2026-12-01T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "a.json"},
              {"id": "bad-date", "startDateTime": "yesterday", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "a.json"},
              {"id": "no-end", "startDateTime": "2026-11-20T00:00:00Z", "assetUrl": "a.json"},
              {"id": "no-asset", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z"},
              {"id": "good", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "other.json"},
              {"id": "local", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "file:///etc/passwd"},
              {"id": "ftp", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "ftp://cdn.example/a.json"},
              {"id": "negative", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "a.json", "displayTimeInterval": -5},
              {"id": "fraction", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "a.json", "priority": 1.5},
              {"startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "a.json"},
              "not an object",
              {"id": 7, "startDateTime": "2026-11-20T00:00:00+01:00", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "/assets/seven.json", "priority": 2}
            ]}
            """
        let (configuration, warnings) = try parse(text)
        #expect(configuration.entries.map(\.id) == ["7", "good"])
        let seven = try #require(configuration.entries.first)
        #expect(seven.start == date("2026-11-19T23:00:00Z"))
        #expect(seven.assetURL == "https://cdn.example/assets/seven.json")
        let expected: [(String, String)] = [
            ("splash 'backwards' (entry 1)", "not after startDateTime"),
            ("splash 'empty-window' (entry 2)", "not after startDateTime"),
            ("splash 'bad-date' (entry 3)", "startDateTime 'yesterday' is not an ISO 8601 date"),
            ("splash 'no-end' (entry 4)", "no \"endDateTime\""),
            ("splash 'no-asset' (entry 5)", "no \"assetUrl\""),
            ("splash 'good' (entry 6)", "duplicate id (first at entry 0)"),
            ("splash 'local' (entry 7)", "may not name a local file"),
            ("splash 'ftp' (entry 8)", "scheme 'ftp' is not allowed"),
            ("splash 'negative' (entry 9)", "displayTimeInterval -5"),
            ("splash 'fraction' (entry 10)", "priority 1.5 is not an integer"),
            ("splash (entry 11)", "no \"id\""),
            ("splash (entry 12)", "expected an object, found a string"),
        ]
        #expect(warnings.count == expected.count, "\(warnings)")
        for ((label, reason), warning) in zip(expected, warnings) {
            #expect(warning.hasPrefix("splash configuration '\(Self.base.absoluteString)': \(label) skipped: "), "\(warning)")
            #expect(warning.contains(reason), "\(warning)")
        }
    }

    @Test(arguments: [
        ("not json at all", "is not JSON"),
        ("[1, 2]", "must be a JSON object"),
        (#"{"splashes": []}"#, "no \"holidaySplash\" array"),
        (#"{"holidaySplash": {"id": "x"}}"#, "no \"holidaySplash\" array"),
        ("", "is not JSON"),
    ])
    func aDocumentThatIsNotAConfigurationIsRefused(text: String, reason: String) throws {
        let error = try #require(throws: ReelError.self) { try parse(text) }
        #expect(error.code == .invalidInput)
        #expect(error.message.contains("splash configuration '\(Self.base.absoluteString)'") && error.message.contains(reason),
                "\(error.message)")
    }

    @Test func aLocalConfigurationMayNameLocalAssets() throws {
        let base = URL(fileURLWithPath: "/srv/launch/splash-config.json")
        let (configuration, warnings) = try parse("""
            {"holidaySplash": [{"id": "a", "startDateTime": "2026-11-20T00:00:00Z", "endDateTime": "2026-12-01T00:00:00Z", "assetUrl": "a.json"}]}
            """, base: base)
        #expect(warnings.isEmpty)
        #expect(configuration.entries.first?.assetURL == "file:///srv/launch/a.json")
    }

    @Test func anEmptyListIsAConfigurationWithoutSplashes() throws {
        let (configuration, warnings) = try parse(#"{"holidaySplash": []}"#)
        #expect(configuration.entries.isEmpty && warnings.isEmpty)
    }
}
