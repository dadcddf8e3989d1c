import Foundation
import ReelServer
import ReelTestSupport
import Testing

/// `reel play` of a master whose variants break: a variant whose segments 404, whose segment is
/// an HTML page, or whose host is dead gives its segment to the variant before and is excluded
/// for the rest of the play; the report lists both, and every frame is its variant's reference
/// frame. A play no variant can complete ends with its report, the error and a non-zero exit.
@Suite("reel play when a variant breaks")
struct VariantFailoverTests {
    /// Serves a copy of s15 (three MPEG-TS renditions, four 2 s segments of 60 frames each),
    /// changed by `damage`, with a fresh cache folder for `body`; both are removed afterwards.
    static func withCopy(damage: (URL) throws -> Void = { _ in },
                         _ body: (CDNServer, URL) async throws -> Void) async throws {
        let root = try makeScratchFolder("reel-failover")
        let cache = try makeScratchFolder("reel-failover-cache")
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: cache)
        }
        try FileManager.default.copyItem(at: PackagePaths.samples.appendingPathComponent("streams/s15"),
                                         to: root.appendingPathComponent("s15"))
        try damage(root)
        try await withSampleServer(root: root) { server in try await body(server, cache) }
    }

    /// Replaces `old` by `new` in the copy's file at `path`.
    static func edit(_ root: URL, _ path: String, _ changes: [(old: String, new: String)]) throws {
        let file = root.appendingPathComponent(path)
        var text = try String(contentsOf: file, encoding: .utf8)
        for change in changes { text = text.replacingOccurrences(of: change.old, with: change.new) }
        try Data(text.utf8).write(to: file)
    }

    /// `reel play` of the copy's master, starting on the top variant (the initial estimate
    /// affords it), printing frame hashes; the JSON report is on stderr.
    static func play(_ server: CDNServer, cache: URL) async throws -> ChildProcess.Result {
        try await ReelProcess.run(["play", server.url(for: "s15/master.m3u8").absoluteString, "--fast", "--framemd5", "--json",
                                   "--cache", cache.path, "--set", "device.bandwidthEstimateKbps=100000"] + PatientNetwork.arguments,
                                  timeout: .seconds(120))
    }

    /// "720p" of ".../s15/720p/index.m3u8".
    static func rendition(_ variant: String) -> String {
        let parts = variant.split(separator: "/")
        return parts.count >= 2 ? String(parts[parts.count - 2]) : variant
    }

    /// The report's ABR part, checked against the frames printed: 240 frames, each the frame of
    /// the same index in the reference of the variant its segment came from.
    static func checkFrames(_ result: ChildProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let report = try CacheCLI.json(result.stderr)
        let abr = try #require(report["abr"] as? [String: Any], "\(report)")
        let segments = try #require(abr["segments"] as? [[String: Any]])
        var variants: [Int: String] = [:]
        for segment in segments {
            if let index = segment["index"] as? Int, let variant = segment["variant"] as? String { variants[index] = rendition(variant) }
        }
        let sample = try #require(SampleIndex.all.first { $0.name == "s15" })
        var references: [String: [String]] = [:]
        for rendition in sample.renditions { references[rendition.id] = try SampleIndex.referenceHashes(rendition.reference) }
        let hashes = CacheCLI.hashes(result.stdout)
        #expect(hashes.count == 240, "\(hashes.count) frames; segments \(variants)", sourceLocation: sourceLocation)
        var mismatches: [String] = []
        for (index, hash) in hashes.enumerated() {
            let variant = variants[index / 60] ?? "?"
            if references[variant]?[index] != hash { mismatches.append("frame \(index) (\(variant))") }
        }
        #expect(mismatches.isEmpty, "frames differing from their variant's reference: \(mismatches.prefix(8))",
                sourceLocation: sourceLocation)
        return abr
    }

    static func excluded(_ abr: [String: Any]) -> [String] {
        (abr["excluded"] as? [[String: Any]] ?? []).compactMap { ($0["variant"] as? String).map(rendition) }
    }

    @Test func aVariantWhoseSegments404GivesWayToTheOneBelowAndIsExcluded() async throws {
        try await Self.withCopy { server, cache in
            for index in 1...3 { server.injectFault(.status(404), path: "/s15/720p/seg_00\(index).ts", count: 100) }
            let result = try await Self.play(server, cache: cache)
            #expect(result.status == 0, "\(result.stderr)")
            let abr = try Self.checkFrames(result)
            let fallbacks = abr["fallbacks"] as? [[String: Any]] ?? []
            #expect(fallbacks.count == 1, "\(abr)")
            #expect(fallbacks.first?["segment"] as? Int == 1)
            #expect((fallbacks.first?["from"] as? String).map(Self.rendition) == "720p")
            #expect((fallbacks.first?["to"] as? String).map(Self.rendition) == "540p")
            #expect((fallbacks.first?["reason"] as? String)?.contains("404") == true, "\(fallbacks)")
            #expect(Self.excluded(abr) == ["720p"], "\(abr)")
            // Excluded: no 720p segment after the first failure was asked for again.
            #expect(server.bill().paths["/s15/720p/seg_002.ts"] == nil, "\(server.bill().paths.keys.sorted())")
        }
    }

    @Test func aSegmentThatIsAnHTMLPageIsTakenFromTheVariantBefore() async throws {
        let page = "<!DOCTYPE html><html><head><title>Access denied</title></head><body>Sign in first</body></html>"
        try await Self.withCopy(damage: { try Data(page.utf8).write(to: $0.appendingPathComponent("s15/720p/seg_001.ts")) }) { server, cache in
            let result = try await Self.play(server, cache: cache)
            #expect(result.status == 0, "\(result.stderr)")
            let abr = try Self.checkFrames(result)
            let fallbacks = abr["fallbacks"] as? [[String: Any]] ?? []
            #expect(fallbacks.count == 1, "\(abr)")
            #expect((fallbacks.first?["reason"] as? String)?.contains("an HTML page (title 'Access denied')") == true, "\(fallbacks)")
            #expect(Self.excluded(abr) == ["720p"], "\(abr)")
        }
    }

    @Test func aVariantWhoseSegmentsAreOnADeadHostIsAFailedVariantNotADeadNetwork() async throws {
        // The top variant's playlist is served, but its segments after the first live on a host
        // that refuses connections.
        let moved = (1...3).map { (old: "seg_00\($0).ts", new: "http://127.0.0.1:1/s15/720p/seg_00\($0).ts") }
        try await Self.withCopy(damage: { try Self.edit($0, "s15/720p/index.m3u8", moved) }) { server, cache in
            let result = try await Self.play(server, cache: cache)
            #expect(result.status == 0, "\(result.stderr)")
            let abr = try Self.checkFrames(result)
            #expect(Self.excluded(abr) == ["720p"], "\(abr)")
            let fallbacks = abr["fallbacks"] as? [[String: Any]] ?? []
            #expect(fallbacks.count == 1 && (fallbacks.first?["reason"] as? String)?.contains("127.0.0.1:1") == true, "\(abr)")
        }
    }

    @Test func aTopVariantOnADeadHostIsLeftOutAtTheStart() async throws {
        let moved = [(old: "720p/index.m3u8", new: "http://127.0.0.1:1/s15/720p/index.m3u8")]
        try await Self.withCopy(damage: { try Self.edit($0, "s15/master.m3u8", moved) }) { server, cache in
            let result = try await Self.play(server, cache: cache)
            #expect(result.status == 0, "\(result.stderr)")
            let abr = try Self.checkFrames(result)
            let excluded = abr["excluded"] as? [[String: Any]] ?? []
            #expect(excluded.count == 1 && excluded.first?["segment"] is NSNull, "\(abr)")
            #expect(Self.excluded(abr) == ["720p"], "\(abr)")
            #expect(Self.rendition(abr["startVariant"] as? String ?? "") == "540p", "\(abr)")
        }
    }

    @Test func aPlayNoVariantCanCompleteEndsWithItsReportAndTheError() async throws {
        try await Self.withCopy { server, cache in
            for variant in ["360p", "540p", "720p"] {
                server.injectFault(.status(404), path: "/s15/\(variant)/seg_002.ts", count: 100)
            }
            let url = server.url(for: "s15/master.m3u8").absoluteString
            let result = try await ReelProcess.run(["play", url, "--fast", "--json", "--cache", cache.path,
                                                    "--set", "device.bandwidthEstimateKbps=100000"] + PatientNetwork.arguments,
                                                   timeout: .seconds(120))
            #expect(result.status == 2, "exit \(result.status): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("reel play: '\(url)' could not be played to its end (180 frames played)")
                    && lines[0].contains("HTTP 404"), "\(result.stderr)")
            let report = try CacheCLI.json(result.stdout)
            let failure = try #require(report["failure"] as? [String: Any], "\(report)")
            #expect(failure["code"] as? String == "notFound")
            #expect((report["video"] as? [String: Any])?["frames"] as? Int == 180)
            let abr = try #require(report["abr"] as? [String: Any])
            #expect(Set(Self.excluded(abr)) == ["360p", "540p", "720p"], "\(abr)")
        }
    }
}
