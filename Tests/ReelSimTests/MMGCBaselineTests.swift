import Foundation
import ReelSim
import ReelTestSupport
import Testing

/// The challenge's baselines, ported, against the averages the reference reimplementation of the
/// challenge's run.py (bit-identical to run.py on the challenge's own data) gives on the tests'
/// own tiny dataset: score, bytes, QoE, the challenge's wasted bytes and the time ratio, exactly.
@Suite("MMGC baselines")
struct MMGCBaselineTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var policy: String
        var set: String
        var score, bytes, qoe, wasted, ratio: Double
        var testDescription: String { "\(policy) on \(set)" }
    }

    static let expected: [Expected] = [
        .init(policy: "no_save", set: "mixed", score: 2.0227249999999994, bytes: 5637300.0, qoe: 24.571925, wasted: 1568900.0, ratio: 1.2482886365466699),
        .init(policy: "no_save", set: "high", score: 10.739600000000017, bytes: 7012150.0, qoe: 38.78820000000002, wasted: 1285000.0, ratio: 1.2482886365466699),
        .init(policy: "no_save", set: "low", score: -3.8903500000000006, bytes: 3229200.0, qoe: 9.026449999999999, wasted: 707900.0, ratio: 1.2080212611741967),
        .init(policy: "no_save", set: "medium", score: -0.14805000000000135, bytes: 4757200.0, qoe: 18.88075, wasted: 1268600.0, ratio: 1.2482886365466699),
        .init(policy: "fixed_preload", set: "mixed", score: 4.706950000000004, bytes: 4845200.0, qoe: 24.087750000000007, wasted: 1214650.0, ratio: 1.2482886365466699),
        .init(policy: "fixed_preload", set: "high", score: 4.474700000000002, bytes: 4902750.0, qoe: 24.085700000000003, wasted: 1080900.0, ratio: 1.2482886365466699),
        .init(policy: "fixed_preload", set: "low", score: -8.030550000000002, bytes: 3399500.0, qoe: 5.567449999999999, wasted: 897700.0, ratio: 1.2080212611741967),
        .init(policy: "fixed_preload", set: "medium", score: 1.4171749999999967, bytes: 4304850.0, qoe: 18.636574999999997, wasted: 991200.0, ratio: 1.2482886365466699),
    ]

    @Test(arguments: expected)
    func theAveragesAreRunPys(_ expected: Expected) throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let dataset = try MMGCDataset.load(root: root.path)
        let set = try #require(try MMGCDataset.challengeTraceSets(root: root.path).first { $0.name == expected.set })
        let results = try MMGCRun.set(set, videos: dataset.videos, user: MMGCUser(videos: dataset.videos)) {
            try MMGCPolicies.make(expected.policy)
        }
        func mean(_ value: (MMGCTraceResult) -> Double) -> Double {
            results.reduce(0) { $0 + value($1) } / Double(results.count)
        }
        let summary = MMGCSummary(name: expected.policy, results: results)
        #expect(summary.score == expected.score)
        #expect(summary.bytesDownloaded == expected.bytes)
        #expect(summary.qoe == expected.qoe)
        #expect(mean(\.challengeWastedBytes) == expected.wasted)
        #expect(summary.downloadWatchRatio == expected.ratio)
    }

    @Test func theFirstTraceOfASetTermByTerm() throws {
        // no_save on mixed/0: Σquality 36950 kbit/s, 2380 ms of stall, Σchanges 5100, 31
        // downloads, 4 waits; 5,825,000 bytes, 1,673,400 of them wasted as the challenge counts.
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let dataset = try MMGCDataset.load(root: root.path)
        let set = try #require(try MMGCDataset.challengeTraceSets(root: root.path).first { $0.name == "mixed" })
        let result = try #require(try MMGCRun.set(set, videos: dataset.videos, user: MMGCUser(videos: dataset.videos)) {
            NoSavePolicy()
        }.first)
        #expect(result.qualityKbps == 36950 && result.rebufferMs == 2380 && result.changeKbps == 5100)
        #expect(result.downloads == 31 && result.waits == 4)
        #expect(result.bytes == 5_825_000 && result.challengeWastedBytes == 1_673_400)
        #expect(abs(result.score - 4.147) < 1e-9 && abs(result.qoe - 27.447) < 1e-9)
        // The honest count leaves out what the challenge counts twice, never more.
        #expect(result.wastedBytes <= result.challengeWastedBytes)
    }
}
