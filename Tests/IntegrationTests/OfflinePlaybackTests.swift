import Foundation
import ReelServer
import ReelTestSupport
import Testing

/// `reel prefetch` then `reel play --offline`: the start of a video plays from the cache alone,
/// frame for frame, with the CDN simulator stopped.
@Suite("reel prefetch and offline playback")
struct OfflinePlaybackTests {
    /// Samples covering plain TS, fMP4 init sections, a master, DASH with audio, AES-128 keys and byte ranges.
    static let samples = SampleIndex.all.filter { ["s01", "s02", "s03", "s04", "s05", "s06"].contains($0.name) }

    @Test func theSamplesAreThere() {
        #expect(Self.samples.count == 6)
    }

    @Test(arguments: samples)
    func twoPrefetchedSegmentsPlayOfflineAsTheReferenceStarts(sample: SampleIndex.Sample) async throws {
        let cache = try makeScratchFolder("reel-offline")
        defer { try? FileManager.default.removeItem(at: cache) }
        let url = try await withSampleServer { server -> String in
            let url = server.url(for: sample.entry).absoluteString
            let prefetch = try await ReelProcess.run(["prefetch", url, "--segments", "2", "--cache", cache.path, "--json"] + PatientNetwork.arguments)
            #expect(prefetch.status == 0, "reel prefetch failed: \(prefetch.stderr)")
            let summary = try CacheCLI.json(prefetch.stdout)
            #expect((summary["fetchedBytes"] as? Int ?? 0) > 0)
            #expect(server.bill().bodyBytes == summary["fetchedBytes"] as? Int,
                    "the bill and the prefetch summary disagree: \(server.bill().paths.mapValues { "\($0.requests) requests \($0.bodyBytes) bytes" }); \(prefetch.stdout)")
            await server.stop()
            return url
        }
        let result = try await ReelProcess.run(["play", url, "--offline", "--framemd5", "--fast", "--json", "--cache", cache.path])
        #expect(result.status == 0, "offline play failed: \(result.stderr)")
        let report = try CacheCLI.json(result.stderr)
        let rendition = try #require(CacheCLI.rendition(of: sample, variant: report["variant"] as? String,
                                                        representation: report["rendition"] as? String))
        let expected = try CacheCLI.referenceFrames(rendition.reference, seconds: 4)
        let got = CacheCLI.hashes(result.stdout)
        #expect(expected.count >= 40)
        #expect(got == expected, "\(sample.name): \(got.count) frames offline, the first two segments hold \(expected.count)")
        let network = try #require(report["network"] as? [String: Any])
        let requests = try #require(network["perRequest"] as? [[String: Any]])
        #expect(requests.allSatisfy { $0["cacheHit"] as? Bool == true }, "an offline request was not a cache hit")
        #expect(network["cacheHitBytes"] as? Int == network["bytes"] as? Int)
    }

    @Test func anUnreachableNetworkFallsBackToWhatTheCacheHolds() async throws {
        let cache = try makeScratchFolder("reel-unreachable")
        defer { try? FileManager.default.removeItem(at: cache) }
        let sample = try #require(SampleIndex.all.first { $0.name == "s03" })
        let url = try await withSampleServer { server -> String in
            let url = server.url(for: sample.entry).absoluteString
            let prefetch = try await ReelProcess.run(["prefetch", url, "--segments", "2", "--cache", cache.path])
            #expect(prefetch.status == 0, "\(prefetch.stderr)")
            return url
        }
        // The server is gone and the master playlist is cached: the variant playlist and two
        // segments play, then the first missing segment meets a refused connection. The play
        // cannot be completed: its report, then the error, and a non-zero exit.
        let result = try await ReelProcess.run(["play", url, "--framemd5", "--fast", "--json", "--cache", cache.path,
                                          "--set", "network.maxRetries=0"])
        #expect(result.status == 3, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        let errorLine = try #require(lines.last { $0.hasPrefix("reel play: ") }, "\(result.stderr)")
        #expect(errorLine.contains("could not be played to its end") && errorLine.contains(url), "\(errorLine)")
        let report = try CacheCLI.json(lines.prefix { !$0.hasPrefix("reel play: ") }.joined(separator: "\n"))
        let failure = try #require(report["failure"] as? [String: Any], "\(report)")
        #expect(failure["code"] as? String == "offline" || failure["code"] as? String == "connectionFailed", "\(failure)")
        let rendition = try #require(CacheCLI.rendition(of: sample, variant: report["variant"] as? String, representation: nil))
        let expected = try CacheCLI.referenceFrames(rendition.reference, seconds: 4)
        #expect(CacheCLI.hashes(result.stdout) == expected)
    }

    @Test func offlineWithNothingCachedIsAClearError() async throws {
        let cache = try makeScratchFolder("reel-empty")
        defer { try? FileManager.default.removeItem(at: cache) }
        let url = try await withSampleServer { server in server.url(for: "streams/s01/index.m3u8").absoluteString }
        let result = try await ReelProcess.run(["play", url, "--offline", "--fast", "--cache", cache.path])
        #expect(result.status == 3, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(url) && result.stderr.contains("not in the cache"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func prefetchDoesNotFetchWhatIsCachedAgain() async throws {
        let cache = try makeScratchFolder("reel-prefetch-twice")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await withSampleServer { server in
            let url = server.url(for: "streams/s02/index.m3u8").absoluteString
            let first = try CacheCLI.json(try await ReelProcess.run(["prefetch", url, "--segments", "3", "--cache", cache.path, "--json"]
                                                                    + PatientNetwork.arguments).stdout)
            let billed = server.bill().bodyBytes
            let second = try CacheCLI.json(try await ReelProcess.run(["prefetch", url, "--segments", "3", "--cache", cache.path, "--json"]).stdout)
            #expect(second["fetchedBytes"] as? Int == 0)
            #expect(second["cachedBytes"] as? Int == first["fetchedBytes"] as? Int)
            #expect(server.bill().bodyBytes == billed, "the second prefetch went to the network")
            let input = try #require((first["inputs"] as? [[String: Any]])?.first)
            let kinds = (input["items"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(kinds == ["initSection", "segment", "segment", "segment"], "\(kinds)")
        }
    }
}
