import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// `reel bench mmgc` and `reel bench mmgc-policy` end to end, on a tiny dataset in the
/// challenge's format that the test writes (none of the challenge's data is committed).
@Suite("reel bench mmgc")
struct BenchCommandTests {
    @Test func theScoreboardAsJSONHoldsEverySetWithThePolicyTheBaselinesAndTheOracle() async throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await ReelProcess.run(["bench", "mmgc", "--data", root.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONParser.parse(result.stdout)
        let sets = try #require(json["sets"]?.array)
        #expect(sets.compactMap { $0["name"]?.string } == ["mixed", "high", "low", "medium"])
        let fields = ["name", "score", "qoe", "rebufferS", "bitrateChanges", "bytesDownloaded", "bytesWasted", "downloadWatchRatio"]
        for set in sets {
            #expect(set.keys == ["name", "policy", "baselines", "oracle"])
            #expect(set["baselines"]?.keys == ["no_save", "fixed_preload"])
            let entries = [set["policy"], set["baselines"]?["no_save"], set["baselines"]?["fixed_preload"], set["oracle"]]
            for entry in entries {
                #expect(entry?.keys == fields)
            }
            #expect(set["policy"]?["name"]?.string == "reel")
            let oracle = try #require(set["oracle"]?["score"]?.number)
            for entry in entries.dropLast() { #expect(try #require(entry?["score"]?.number) <= oracle) }
        }
        // The challenge's own average for no_save on the tiny dataset's mixed set (run.py's figure).
        #expect(sets[0]["baselines"]?["no_save"]?["score"]?.number == 2.0227249999999994)
        #expect(sets[0]["baselines"]?["fixed_preload"]?["bytesDownloaded"]?.number == 4845200)
    }

    @Test func otherTraceFoldersAndOtherUsers() async throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let slow = root.appendingPathComponent("slow")
        try FileManager.default.createDirectory(at: slow, withIntermediateDirectories: true)
        try MMGCFixture.trace(kbps: 900, variant: 3).write(to: slow.appendingPathComponent("commute.txt"), atomically: true, encoding: .utf8)
        let result = try await ReelProcess.run(["bench", "mmgc", "--data", root.path, "--policy", "fixed_preload",
                                                "--traces", root.appendingPathComponent("data/network_traces/low").path,
                                                "--traces", slow.path, "--user-seed", "7"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("user seed 7 (watch times 741, 6000, 1924, 5000, 1924, 1081, 2203 ms)"), "\(result.stdout)")
        #expect(result.stdout.contains("\nlow (2 traces)") && result.stdout.contains("\nslow (1 trace)"), "\(result.stdout)")
        #expect(!result.stdout.contains("mixed"))
        #expect(result.stdout.contains("No policy scored above the oracle on any trace."))
    }

    @Test func aMissingOrMalformedDataFolderExitsWithTwoAndSaysWhy() async throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = try await ReelProcess.run(["bench", "mmgc", "--data", root.appendingPathComponent("none").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("none/data' not found"), "\(missing.stderr)")
        try "0.0 1.0\n0.5 1,5\n".write(to: root.appendingPathComponent("data/network_traces/high/1"), atomically: true, encoding: .utf8)
        let malformed = try await ReelProcess.run(["bench", "mmgc", "--data", root.path])
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("network_traces/high/1 line 2: bandwidth '1,5' is not a finite number"), "\(malformed.stderr)")
        let policy = try await ReelProcess.run(["bench", "mmgc", "--data", root.path, "--policy", "best"])
        #expect(policy.status != 0 && policy.stderr.contains("unknown policy 'best'"), "\(policy.stderr)")
    }

    @Test func thePolicyServerAnswersEachLineAndRefusesABadOne() async throws {
        let folder = try makeScratchFolder("reel-mmgc-policy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = """
            {"first": true, "delayMs": 0, "rebufferMs": 0, "chunkBytes": 0, "playing": 0, "queue": [\
            {"index": 0, "downloaded": 0, "levels": [], "playedMs": 0, "bufferMs": 0, \
            "sizes": [[90000, 95000], [140000, 150000], [220000, 230000]], "retention": [1, 0.8, 0.5, 0]}]}
            """
        let input = folder.appendingPathComponent("states.jsonl")
        try (state + "\nnot a state\n").write(to: input, atomically: true, encoding: .utf8)
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                                ["-c", "exec \"$0\" bench mmgc-policy --policy fixed_preload < \"$1\"",
                                                 PackagePaths.reelBinary.path, input.path])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stdout)\(result.stderr)")
        #expect(lines.first == "{\"download\":0,\"bitrate\":0,\"sleep\":0}")
        #expect(lines.last?.hasPrefix("{\"error\":\"line 2: not JSON") == true, "\(result.stdout)")
        #expect(result.status == 2 && result.stderr.contains("1 line(s) refused"), "\(result.stderr)")
    }
}
