import ReelCore

/// The JSON-lines policy protocol, one line in, one line out, so the challenge's own `run.py`
/// can score a Reel policy through the `bench/mmgc` adapter:
///
/// - In: an `MMGCObservation` as one JSON object per line (`{"first": true, "delayMs": 0,
///   "rebufferMs": 0, "chunkBytes": 0, "playing": 0, "queue": [{"index": 0, "downloaded": 0,
///   "levels": [], "playedMs": 0, "bufferMs": 0, "sizes": [[...], [...], [...]],
///   "retention": [...]}, ...]}`). `"first": true` starts a session with a fresh policy (the
///   challenge makes a fresh `Algorithm` per trace).
/// - Out: `{"download": <video index>, "bitrate": <level>, "sleep": <ms>}`: a download when
///   `sleep` is 0, else a sleep (`download` is then the playing video, as the baselines answer).
/// - A line that cannot be read, does not hold a valid state, or comes before any session gets
///   `{"error": "line N: <why>"}`; the session goes on with the next good line.
package struct MMGCPolicyServer: Sendable {
    /// The longest line read; a longer one is refused.
    package static let maxLineBytes = 16 << 20

    package let policyName: String
    package let config: ReelConfig
    private var driver: MMGCPolicyDriver?
    private var lineNumber = 0

    /// A server for the policy `policyName` (refused when there is none by that name).
    package init(policy policyName: String, config: ReelConfig = ReelConfig()) throws {
        _ = try MMGCPolicies.make(policyName, config: config)
        self.policyName = policyName
        self.config = config
    }

    /// The reply to one line, and whether the line was refused.
    package mutating func reply(to line: String) -> (text: String, refused: Bool) {
        lineNumber += 1
        do {
            let action = try decide(line)
            let text = switch action {
            case .download(let video, let level): "{\"download\":\(video),\"bitrate\":\(level),\"sleep\":0}"
            case .sleep(let ms): "{\"download\":\(currentPlaying),\"bitrate\":0,\"sleep\":\(Int(ms))}"
            }
            return (text, false)
        } catch {
            let message = (error as? ReelError)?.description ?? "\(error)"
            let text = (try? ReportJSON.string(["error": "line \(lineNumber): \(message)"], compact: true))
            return (text ?? "{\"error\":\"line \(lineNumber)\"}", true)
        }
    }

    /// The reply to a line refused before it was read (too long to hold).
    package mutating func refuse(_ reason: String) -> String {
        lineNumber += 1
        let text = try? ReportJSON.string(["error": "line \(lineNumber): \(reason)"], compact: true)
        return text ?? "{\"error\":\"line \(lineNumber)\"}"
    }

    private var currentPlaying = 0

    private mutating func decide(_ line: String) throws -> MMGCAction {
        guard line.utf8.count <= Self.maxLineBytes else {
            throw ReelError(.invalidInput, "the line is \(line.utf8.count) bytes, over the limit of \(Self.maxLineBytes)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw ReelError(.invalidInput, "not JSON (\(error.description))")
        }
        let observation = try JSONValueDecoder.decode(MMGCObservation.self, from: value)
        try observation.validate()
        if observation.first {
            driver = MMGCPolicyDriver(policy: try MMGCPolicies.make(policyName, config: config))
        }
        guard var current = driver else {
            throw ReelError(.invalidInput, "no session yet: a session's first state must say \"first\": true")
        }
        defer { driver = current }
        currentPlaying = observation.playing
        return try current.decide(observation, in: nil)
    }
}
