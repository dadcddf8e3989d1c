import Foundation
import ReelCore
import ReelSim
import ReelTestSupport
import Testing

/// The JSON-lines policy protocol that lets the challenge's run.py score a Reel policy: a state
/// line in, a decision line out, the same decisions as the native run, and bad lines refused with
/// the line's number and the reason.
@Suite("MMGC policy protocol")
struct MMGCProtocolTests {
    static func decode(_ line: String) throws -> JSONValue { try JSONParser.parse(line) }

    /// A decision line's fields, in order, and its download, bitrate and sleep.
    static func decision(_ line: String) throws -> (keys: [String], values: [Double?]) {
        let value = try decode(line)
        return (value.keys, ["download", "bitrate", "sleep"].map { value[$0]?.number })
    }

    /// Runs `policy` on a trace natively and, at every decision, sends the same state as a JSON
    /// line to a server: both must answer the same.
    @Test(arguments: ["reel", "no_save", "fixed_preload"])
    func aServedPolicyDecidesAsTheNativeOne(policy: String) throws {
        let root = try MMGCFixture.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let dataset = try MMGCDataset.load(root: root.path)
        let trace = try #require(try MMGCDataset.challengeTraceSets(root: root.path).first?.traces.first)
        let user = MMGCUser(videos: dataset.videos)
        var server = try MMGCPolicyServer(policy: policy)
        var driver = MMGCPolicyDriver(policy: try MMGCPolicies.make(policy))
        var session = MMGCSession(videos: dataset.videos, user: user, trace: trace)
        var last: MMGCStep?
        var decisions = 0
        while !session.isFinished {
            let observation = MMGCObservation(session, after: last)
            let action = try driver.decide(observation, in: session)
            let reply = server.reply(to: try ReportJSON.string(observation, compact: true))
            #expect(!reply.refused, "\(reply.text)")
            let answer = try Self.decision(reply.text)
            #expect(answer.keys == ["download", "bitrate", "sleep"])
            switch action {
            case .download(let video, let level):
                #expect(answer.values == [Double(video), Double(level), 0])
            case .sleep(let ms):
                #expect(answer.values == [Double(session.playing), 0, ms.rounded(.towardZero)])
            }
            last = session.step(action)
            decisions += 1
        }
        #expect(decisions > 20)
    }

    static let goodState = """
        {"first": true, "delayMs": 0, "rebufferMs": 0, "chunkBytes": 0, "playing": 0, "queue": [\
        {"index": 0, "downloaded": 0, "levels": [], "playedMs": 0, "bufferMs": 0, \
        "sizes": [[90000, 95000], [140000, 150000], [220000, 230000]], "retention": [1, 0.8, 0.5, 0]}]}
        """

    @Test func aStateLineGetsADecisionLine() throws {
        var server = try MMGCPolicyServer(policy: "no_save")
        let reply = server.reply(to: Self.goodState)
        #expect(!reply.refused)
        // no_save starts at the highest level.
        let answer = try Self.decision(reply.text)
        #expect(answer.keys == ["download", "bitrate", "sleep"] && answer.values == [0, 2, 0])
    }

    @Test(arguments: [
        ("", "not JSON"),
        ("{\"first\": true", "not JSON"),
        ("{\"first\": true, \"delayMs\": 0, \"rebufferMs\": 0, \"chunkBytes\": 0, \"playing\": 0}", "queue"),
        (goodState.replacingOccurrences(of: "\"index\": 0", with: "\"index\": 3"), "queue[0].index"),
        (goodState.replacingOccurrences(of: "[90000, 95000], ", with: ""), "levels"),
        (goodState.replacingOccurrences(of: "\"downloaded\": 0", with: "\"downloaded\": 1"), "downloaded"),
        (goodState.replacingOccurrences(of: "\"delayMs\": 0", with: "\"delayMs\": -5"), "delayMs"),
        (goodState.replacingOccurrences(of: "\"first\": true", with: "\"first\": false"), "no session"),
        (goodState.replacingOccurrences(of: "[1, 0.8, 0.5, 0]", with: "[1]"), "retention"),
    ])
    func aBadLineIsRefusedWithItsNumberAndWhy(line: String, reason: String) throws {
        var server = try MMGCPolicyServer(policy: "fixed_preload")
        let reply = server.reply(to: line)
        #expect(reply.refused)
        let message = try #require(try Self.decode(reply.text)["error"]?.string)
        #expect(message.hasPrefix("line 1: ") && message.contains(reason), "\(message)")
        // The next good line is answered: a bad line does not end the session.
        let next = server.reply(to: Self.goodState)
        #expect(!next.refused, "\(next.text)")
    }

    @Test func theOracleAndUnknownPoliciesAreNotServed() {
        #expect(throws: ReelError.self) { try MMGCPolicyServer(policy: "oracle") }
        #expect(throws: ReelError.self) { try MMGCPolicyServer(policy: "nope") }
    }
}
