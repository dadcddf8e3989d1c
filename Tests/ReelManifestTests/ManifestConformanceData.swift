import Foundation
import Testing

/// Locates the public conformance suites (videojs m3u8-parser and mpd-parser cases) in place:
/// `$REEL_CONFORMANCE_DIR`, else `<package root>/../shared/conformance`. They are never copied
/// into the project.
enum ManifestConformanceData {
    /// One case of a suite's `cases.json`, reported by its name.
    struct Case: Sendable, Hashable, CustomTestStringConvertible {
        let suite: String
        let name: String
        let input: String
        let expectedJSON: String
        let kind: String
        let category: String

        var testDescription: String { name }
        var isErrorRecovery: Bool { category.hasPrefix("error-recovery") }

        func inputData() throws -> Data {
            try Data(contentsOf: ManifestConformanceData.folder(suite).appendingPathComponent(input))
        }

        func expected() throws -> [String: Any] {
            let data = try Data(contentsOf: ManifestConformanceData.folder(suite).appendingPathComponent(expectedJSON))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    static let hlsSuite = "hls-m3u8-parser"
    static let dashSuite = "dash-mpd-parser"

    /// The directory searched, whether or not it exists.
    static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["REEL_CONFORMANCE_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        // #filePath is <root>/Tests/ReelManifestTests/ManifestConformanceData.swift.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/conformance", isDirectory: true)
            .standardizedFileURL
    }()

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("README.md").path)
    }

    /// Under CI (`CI=true`) the suites must run: missing data is a failure there, never a skip.
    static var isRequired: Bool {
        let environment = ProcessInfo.processInfo.environment
        return ["true", "1"].contains(environment["CI"]?.lowercased() ?? "") || environment["REEL_REQUIRE_CONFORMANCE"] == "1"
    }

    /// Whether the suites run: when the data is there, and always under CI.
    static var runs: Bool { isAvailable || isRequired }

    /// Why the conformance suites are disabled.
    static var disabledComment: Comment {
        Comment(
            rawValue:
                "conformance data not found at \(directory.path); set REEL_CONFORMANCE_DIR to the folder holding hls-m3u8-parser/ and dash-mpd-parser/")
    }

    static func folder(_ suite: String) -> URL {
        directory.appendingPathComponent(suite, isDirectory: true)
    }

    /// The cases of `suite`, or none when the data is absent or unreadable (the completeness
    /// test then fails loudly).
    static func cases(_ suite: String) -> [Case] {
        guard isAvailable,
            let data = try? Data(contentsOf: folder(suite).appendingPathComponent("cases.json")),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        return list.compactMap { entry in
            guard let name = entry["name"] as? String, let input = entry["input"] as? String,
                let expected = entry["expected_json"] as? String
            else { return nil }
            return Case(
                suite: suite, name: name, input: input, expectedJSON: expected, kind: entry["kind"] as? String ?? "",
                category: entry["category"] as? String ?? "")
        }
    }

    static let hlsCases = cases(hlsSuite)
    static let dashCases = cases(dashSuite)
}

/// The conformance data is where the suites look for it whenever they must run.
@Suite("Conformance data")
struct ManifestConformanceDataTests {
    @Test(.enabled(if: ManifestConformanceData.isRequired, "runs under CI=true (or REEL_REQUIRE_CONFORMANCE=1)"))
    func isThereWhenCIRunsTheTests() {
        #expect(ManifestConformanceData.isAvailable, ManifestConformanceData.disabledComment)
        #expect(!ManifestConformanceData.hlsCases.isEmpty && !ManifestConformanceData.dashCases.isEmpty)
    }
}
