import Foundation
import ReelCore
import ReelSim
import ReelTestSupport
import Testing

/// Reading a checkout of the challenge: the tests' tiny dataset reads whole, and every kind of
/// bad file fails with its path, its line and the cause.
@Suite("MMGC dataset")
struct MMGCDatasetTests {
    @Test func theTinyDatasetReadsInSessionOrder() throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let dataset = try MMGCDataset.load(root: root.path)
        #expect(dataset.videos.map(\.name) == MMGCFixture.names)
        #expect(dataset.videos.map(\.chunkCount) == MMGCFixture.chunks)
        #expect(dataset.videos[0].sizes[2][0] == 2500 * 80 + 2500 * 10)
        #expect(dataset.videos[0].retentionRows == [1, 0.85, 0.7, 0.55, 0.4, 0])
        let sets = try MMGCDataset.challengeTraceSets(root: root.path)
        #expect(sets.map(\.name) == ["mixed", "high", "low", "medium"])
        #expect(sets.allSatisfy { $0.traces.map(\.name) == ["0", "1"] && $0.traces.allSatisfy { $0.seconds.count == MMGCFixture.traceRows } })
    }

    /// Writes `text` over `path` under a fresh dataset and reads it; returns the error's words.
    func failure(_ path: String, _ text: String) throws -> String {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8)
        do {
            _ = try MMGCDataset.load(root: root.path)
            _ = try MMGCDataset.challengeTraceSets(root: root.path)
        } catch let error as ReelError {
            #expect(error.code == .invalidInput)
            return error.description
        }
        Issue.record("\(path) was read without an error")
        return ""
    }

    @Test(arguments: [
        ("data/network_traces/low/1", "0.0 1.5\n0.5 fast\n", "low/1 line 2: bandwidth 'fast' is not a finite number"),
        ("data/network_traces/low/1", "0.0 1.5\n0.5\n", "low/1 line 2: expected 'seconds Mbps'"),
        ("data/network_traces/low/1", "0.0 1.5\n1.0 2\n0.5 2\n", "low/1 line 3: time 0.5 goes back"),
        ("data/network_traces/low/1", "0.0 1.5\n0.5 -2\n", "low/1 line 2: bandwidth -2.0 is negative"),
        ("data/network_traces/low/1", "0.0 1.5\n", "has 1 row(s)"),
        ("data/network_traces/low/1", "0.0 5\n0.5 0\n1.0 0\n", "carries 0.000000 Mbps on average"),
        ("data/short_video_size/v2/video_size_1", "100\n200\n", "list 2 chunks, but level 0 lists 6"),
        ("data/short_video_size/v2/video_size_0", "100\nlots\n", "video_size_0 line 2: chunk size (bytes) 'lots' is not a whole number"),
        ("data/short_video_size/v2/video_size_0", "", "are empty"),
        ("data/user_ret/v3", "0 1\n1 0.5\n2 0.7\n3 0.1\n4 0\n", "v3 line 3: retention rises from 0.5 to 0.7"),
        ("data/user_ret/v3", "0 1\n1 0.5\n", "needs 5 (seconds 0...3"),
        ("data/user_ret/v3", "0 1\n1 0.5\n2 0.4\n3 0.1\n4 0.1\n", "must go from 1 to 0"),
        ("data/user_ret/v3", "0 1\n2 0.5\n2 0.4\n3 0.1\n4 0\n", "v3 line 2: second 2 should be 1"),
    ])
    func aBadFileIsNamedWithItsLineAndCause(path: String, text: String, expected: String) throws {
        let message = try failure(path, text)
        #expect(message.contains(expected), "\(message)")
    }

    @Test func missingFoldersAreNamed() throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = root.appendingPathComponent("nowhere").path
        #expect(throws: ReelError.self) { try MMGCDataset.load(root: missing) }
        do {
            _ = try MMGCDataset.load(root: missing)
        } catch let error as ReelError {
            #expect(error.message.contains("nowhere/data") && error.message.contains("not found"))
        }
        try FileManager.default.removeItem(at: root.appendingPathComponent("data/user_ret/v4"))
        do {
            _ = try MMGCDataset.load(root: root.path)
            Issue.record("a missing retention file was not noticed")
        } catch let error as ReelError {
            #expect(error.message.contains("user_ret/v4' not found"), "\(error.message)")
        }
        try FileManager.default.removeItem(at: root.appendingPathComponent("data/network_traces/medium"))
        #expect(throws: ReelError.self) { try MMGCDataset.challengeTraceSets(root: root.path) }
    }

    @Test func windowsLineEndsTabsAndExtraColumnsRead() throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "0.0\t1.5\r\n0.5 2.0 extra\r\n\r\n1.0 1.0\r\n".write(to: folder.appendingPathComponent("b"), atomically: true, encoding: .utf8)
        try "0 3\n1 4\n".write(to: folder.appendingPathComponent("a"), atomically: true, encoding: .utf8)
        try "ignored".write(to: folder.appendingPathComponent(".hidden"), atomically: true, encoding: .utf8)
        let set = try MMGCDataset.readTraceSet(folder: folder.path)
        #expect(set.name == "other")
        // Names that are not all numbers sort by name.
        #expect(set.traces.map(\.name) == ["a", "b"])
        #expect(set.traces[1].seconds == [0, 0.5, 1] && set.traces[1].mbps == [1.5, 2, 1])
    }
}
