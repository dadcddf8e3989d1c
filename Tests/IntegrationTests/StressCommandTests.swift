import Foundation
import ReelTestSupport
import Testing

/// `reel stress` as a user runs it: the built binary serving the samples in-process.
@Suite("reel stress")
struct StressCommandTests {
    /// 30 seconds of more cards than decoders, so requests wait and players are preempted: no
    /// player fails, no invariant breaks, and the report has every key scripts read.
    @Test func thirtySecondsUnderContentionWithoutErrors() async throws {
        let result = try await ReelProcess.run(
            ["stress", "--seconds", "30", "--widgets", "6", "--pool", "3", "--seed", "7", "--profile", "unlimited", "--json"],
            timeout: .seconds(300))
        #expect(result.status == 0, "reel stress failed: \(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "not JSON: \(result.stdout)")
        #expect(report["errors"] as? Int == 0, "\(report["errorMessages"] ?? "")")
        #expect((report["invariantBreaches"] as? [String])?.isEmpty == true)
        #expect(report["passed"] as? Bool == true, "leak: \(report["leak"] ?? "?"), rss: \(report["rss"] ?? "?")")
        let decoders = try #require(report["decoders"] as? [String: Int])
        for key in ["created", "reused", "reconfigured", "evicted"] { #expect(decoders[key] != nil, "decoders.\(key)") }
        #expect(decoders["maxLive"].map { $0 <= 3 } == true)
        let acquire = try #require(report["acquireMs"] as? [String: Double])
        #expect(Set(acquire.keys).isSuperset(of: ["p50", "p99", "max"]))
        let rss = try #require(report["rss"] as? [String: Double])
        #expect(Set(rss.keys).isSuperset(of: ["startMB", "midMB", "endMB"]))
        #expect(report["reuseRatio"] is Double)
        #expect((report["frames"] as? Int).map { $0 > 0 } == true)
        #expect((report["waits"] as? Int).map { $0 > 0 } == true, "six cards on three decoders should wait")
    }

    @Test func badOptionsAreRefused() async throws {
        let result = try await ReelProcess.run(["stress", "--widgets", "0"])
        #expect(result.status == 2, "a usage error: status \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("--widgets"))
        let profile = try await ReelProcess.run(["stress", "--profile", "dialup", "--seconds", "1"])
        #expect(profile.status == 2)
        #expect(profile.stderr.contains("dialup"))
    }
}
