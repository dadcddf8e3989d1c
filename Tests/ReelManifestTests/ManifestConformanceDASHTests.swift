import Foundation
import Testing

@testable import ReelManifest

/// Runs the 16 videojs mpd-parser cases against Reel's DASH parser: per representation the
/// ordered resolved segment URLs, durations, byte ranges, init section, BANDWIDTH, CODECS and
/// RESOLUTION. Where mpd-parser's model differs from Reel's, the test says how and why.
@Suite(.enabled(if: ManifestConformanceData.runs, ManifestConformanceData.disabledComment))
struct ManifestConformanceDASHTests {
    /// The manifest URL is empty in these cases; every segment URL they use is absolute.
    static let baseURL = URL(string: "https://conformance.invalid/dash/manifest.mpd")!

    /// One expected representation: mpd-parser splits a Representation id into several
    /// playlists when its BaseURL or bandwidth changes between periods; Reel keeps one rendition
    /// per (type, language, id) and concatenates, so the chunks are joined here, each later
    /// chunk starting with a discontinuity.
    struct ExpectedRendition {
        var type: Rendition.Kind
        var language: String?
        var name: String
        var attributes: [String: Any]
        var segments: [[String: Any]] = []
        var playlistBase: String
        var sidx: [String: Any]?
    }

    @Test func suiteIsComplete() {
        #expect(
            ManifestConformanceData.dashCases.count == 16,
            "expected 16 DASH cases in \(ManifestConformanceData.directory.path)")
    }

    @Test(arguments: ManifestConformanceData.dashCases)
    func conformance(_ testCase: ManifestConformanceData.Case) throws {
        let manifest = try DASHManifestParser.parse(try testCase.inputData(), url: Self.baseURL)
        let expected = Self.expectedRenditions(try testCase.expected())
        #expect(manifest.renditions.count == expected.count, "renditions: \(manifest.renditions.map(\.id))")
        var mismatches: [String] = []
        for theirs in expected {
            guard
                let ours = manifest.renditions.first(where: {
                    $0.id == theirs.name && $0.type == theirs.type
                        && (theirs.language == nil || $0.language == theirs.language)
                })
            else {
                mismatches.append("\(theirs.type) \(theirs.name) (\(theirs.language ?? "-")): missing")
                continue
            }
            // The removed-periods case continues a previous manifest whose history gives its first
            // segment a discontinuity; Reel parses each MPD on its own.
            let ignoreFirstDiscontinuity = testCase.name == "multiperiod-startnumber-removed-periods"
            mismatches += Self.compare(ours, theirs, ignoreFirstDiscontinuity: ignoreFirstDiscontinuity)
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    static func expectedRenditions(_ json: [String: Any]) -> [ExpectedRendition] {
        var result: [ExpectedRendition] = []
        func add(_ playlist: [String: Any], type: Rendition.Kind, language: String?) {
            let attributes = playlist["attributes"] as? [String: Any] ?? [:]
            let name = attributes["NAME"] as? String ?? ""
            var segments = playlist["segments"] as? [[String: Any]] ?? []
            if let index = result.firstIndex(where: { $0.name == name && $0.type == type && $0.language == language }) {
                if !segments.isEmpty, !result[index].segments.isEmpty { segments[0]["discontinuity"] = true }
                result[index].segments += segments
                return
            }
            result.append(
                ExpectedRendition(
                    type: type, language: language, name: name, attributes: attributes, segments: segments,
                    playlistBase: playlist["resolvedUri"] as? String ?? "", sidx: playlist["sidx"] as? [String: Any]))
        }
        for playlist in json["playlists"] as? [[String: Any]] ?? [] { add(playlist, type: .video, language: nil) }
        let groups = json["mediaGroups"] as? [String: Any] ?? [:]
        for (typeName, kind) in [("AUDIO", Rendition.Kind.audio), ("SUBTITLES", .text)] {
            for (_, names) in groups[typeName] as? [String: Any] ?? [:] {
                for (_, entry) in names as? [String: Any] ?? [:] {
                    let entry = entry as? [String: Any] ?? [:]
                    for playlist in entry["playlists"] as? [[String: Any]] ?? [] {
                        add(playlist, type: kind, language: entry["language"] as? String)
                    }
                }
            }
        }
        return result
    }

    static func compare(_ ours: Rendition, _ theirs: ExpectedRendition, ignoreFirstDiscontinuity: Bool) -> [String] {
        var out: [String] = []
        let label = "\(theirs.type) \(theirs.name)"
        if let bandwidth = theirs.attributes["BANDWIDTH"] as? Double, Double(ours.bandwidth ?? -1) != bandwidth {
            out.append("\(label) BANDWIDTH: Reel \(ours.bandwidth ?? -1), expected \(bandwidth)")
        }
        if ours.codecs != theirs.attributes["CODECS"] as? String {
            out.append("\(label) CODECS: Reel \(ours.codecs ?? "none")")
        }
        let resolution = (theirs.attributes["RESOLUTION"] as? [String: Any]).flatMap { value -> Resolution? in
            guard let width = value["width"] as? Double, let height = value["height"] as? Double else { return nil }
            return Resolution(width: Int(width), height: Int(height))
        }
        if ours.resolution != resolution { out.append("\(label) RESOLUTION: Reel \(String(describing: ours.resolution))") }

        var expectedSegments = theirs.segments
        if expectedSegments.isEmpty, let sidx = theirs.sidx {
            // mpd-parser leaves SegmentBase with an index range for a later sidx fetch; Reel makes
            // the whole resource one segment, with the Initialization range as its init section.
            var whole = sidx
            whole["byterange"] = nil
            expectedSegments = [whole]
        }
        if ours.segments.count != expectedSegments.count {
            out.append("\(label) segment count: Reel \(ours.segments.count), expected \(expectedSegments.count)")
        }
        for (index, (segment, expected)) in zip(ours.segments, expectedSegments).enumerated() {
            let prefix = "\(label) segment \(index)"
            if segment.resolvedURL.absoluteString != expected["resolvedUri"] as? String {
                out.append("\(prefix) resolvedUri: Reel \(segment.resolvedURL.absoluteString), expected \(expected["resolvedUri"] ?? "")")
            }
            if let duration = expected["duration"] as? Double, abs(segment.duration - duration) > 1e-6 {
                out.append("\(prefix) duration: Reel \(segment.duration), expected \(duration)")
            }
            if segment.byteRange != ManifestConformanceHLSTests.range(expected["byterange"]) {
                out.append("\(prefix) byterange: Reel \(String(describing: segment.byteRange))")
            }
            let discontinuity = (expected["discontinuity"] as? Bool) ?? false
            if segment.discontinuity != discontinuity && !(index == 0 && ignoreFirstDiscontinuity) {
                out.append("\(prefix) discontinuity: Reel \(segment.discontinuity)")
            }
            out += compareMap(segment.initSection, expected["map"] as? [String: Any], theirs: theirs, prefix)
        }
        return out
    }

    /// mpd-parser invents a map equal to the BaseURL when the MPD declares no initialization;
    /// Reel reports none (fetching the media file itself as an init section would be wrong).
    static func compareMap(_ ours: InitSection?, _ map: [String: Any]?, theirs: ExpectedRendition, _ prefix: String)
        -> [String]
    {
        guard let map, let resolved = map["resolvedUri"] as? String else {
            return ours == nil ? [] : ["\(prefix) map: Reel has one, expected none"]
        }
        let invented = map["byterange"] == nil && (map["uri"] as? String ?? "") == ""
            && (resolved == theirs.playlistBase || resolved == (theirs.sidx?["resolvedUri"] as? String))
        if invented && ours == nil { return [] }
        guard let ours else { return ["\(prefix) map: Reel none, expected \(resolved)"] }
        var out: [String] = []
        if ours.resolvedURL.absoluteString != resolved { out.append("\(prefix) map: Reel \(ours.resolvedURL.absoluteString), expected \(resolved)") }
        if ours.byteRange != ManifestConformanceHLSTests.range(map["byterange"]) {
            out.append("\(prefix) map byterange: Reel \(String(describing: ours.byteRange))")
        }
        return out
    }
}
