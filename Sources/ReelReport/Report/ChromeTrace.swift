import OrderedCollections
import ReelCore
import ReelEngine
import ReelFeed
import ReelMedia

/// A session's events in the Chrome trace event format (JSON), which Perfetto
/// (ui.perfetto.dev) and chrome://tracing open: one process for the feed with, per card, a
/// track of its visibility states, a track of its plays (first frames and stalls on it) and a
/// track of its time to first frame with the player's phases nested inside; one process for the
/// network with a track per transfer. Timestamps are microseconds from the session's start;
/// slices are `B`/`E` pairs on their own tracks (so they nest), marks are instant events.
package enum ChromeTrace {
    static let feedProcess = 1
    static let networkProcess = 2

    /// The trace of `events` (the session's end is its last event).
    package static func make(_ events: [SessionEvent]) -> JSONValue {
        var builder = Builder()
        builder.process(feedProcess, name: "feed")
        builder.process(networkProcess, name: "network")
        let end = events.map(\.time).max() ?? 0
        var states: [CardID: (since: Double, state: VisibilityState)] = [:]
        var playing: [CardID: Double] = [:]
        var transfers = 0
        var ttffEnds: [CardID: Double] = [:]
        for event in events.sorted(by: { $0.time < $1.time }) {
            let t = event.time
            switch event.kind {
            case .visibility(let change):
                let track = builder.track(feedProcess, "\(change.card) state")
                if let open = states[change.card] { builder.slice(track, open.state.rawValue, from: open.since, to: t, category: "visibility") }
                states[change.card] = (t, change.to)
            case .playStart(let play):
                let track = builder.track(feedProcess, "\(play.card) play")
                if let since = playing[play.card] { builder.slice(track, "play", from: since, to: t, category: "play") }
                playing[play.card] = t
            case .playStop(let stop):
                let track = builder.track(feedProcess, "\(stop.card) play")
                if let since = playing.removeValue(forKey: stop.card) {
                    builder.slice(track, "play", from: since, to: t, category: "play", args: ["reason": .string(stop.detail.rawValue)])
                }
            case .firstFrame(let frame):
                builder.instant(builder.track(feedProcess, "\(frame.card) play"), "first frame", at: t,
                                args: ["ttffMs": .double(frame.ttffMs)])
                builder.phases(builder.track(feedProcess, "\(frame.card) ttff"), frame.phases, endingAt: t,
                               notBefore: ttffEnds[frame.card] ?? 0)
                ttffEnds[frame.card] = t
            case .preload(let preload):
                builder.instant(builder.track(feedProcess, "\(preload.card) play"), "preload \(preload.stage)", at: t)
            case .stall(let stall):
                let track = builder.track(feedProcess, "\(stall.card) play")
                builder.instant(track, "stall", at: t, args: ["ms": .double(stall.ms)])
            case .variantSwitch(let change):
                builder.instant(builder.track(feedProcess, "\(change.card) play"), "variant \(change.reason)", at: t,
                                args: ["segment": .int(change.segment), "from": .string(change.from), "to": .string(change.to)])
            case .error(let failure):
                let name = failure.card.map { "\($0) play" } ?? "session"
                builder.instant(builder.track(feedProcess, name), "error", at: t, args: ["message": .string(failure.message)])
            case .fetch(let fetch):
                transfers += 1
                let start = max(0, t - (fetch.durationMs ?? 0) / 1000)
                let track = builder.track(networkProcess, "\(transfers) \(fetch.origin.rawValue) \(Self.shortName(fetch.url))")
                builder.slice(track, Self.shortName(fetch.url), from: start, to: max(t, start), category: fetch.origin.rawValue,
                              args: ["url": .string(fetch.url), "bytes": .int(Int(fetch.bytes)), "cacheBytes": .int(Int(fetch.cacheBytes)),
                                     "card": .optional(fetch.card?.rawValue)])
            case .mount, .unmount, .prefetchQueued, .prefetchStarted, .prefetchDone, .prefetchCancelled:
                continue
            }
        }
        // What is still open at the end closes there.
        for (card, open) in states { builder.slice(builder.track(feedProcess, "\(card) state"), open.state.rawValue, from: open.since, to: end, category: "visibility") }
        for (card, since) in playing { builder.slice(builder.track(feedProcess, "\(card) play"), "play", from: since, to: end, category: "play") }
        return builder.json
    }

    /// The last path component of a URL, for a slice's name.
    static func shortName(_ url: String) -> String {
        let path = url.split(separator: "?").first.map(String.init) ?? url
        return path.split(separator: "/").last.map(String.init) ?? url
    }

    /// Collects trace events, tracks (thread ids) named once each.
    struct Builder {
        /// Each event with its sort key: time, then closings (innermost first), marks, openings
        /// (outermost first), so slices nest on their track even when they touch.
        private var events: [(ts: Int64, rank: Int, order: Int, value: JSONValue)] = []
        private var metadata: [JSONValue] = []
        private var tracks: [String: Int] = [:]
        /// Where the last slice of each track ended, in microseconds: the next begins no earlier.
        private var ends: [Int: Int64] = [:]
        private var order = 0

        mutating func process(_ pid: Int, name: String) {
            metadata.append(.object(["name": .string("process_name"), "ph": .string("M"), "pid": .int(pid), "tid": .int(0),
                                     "args": .object(["name": .string(name)])]))
        }

        mutating func track(_ pid: Int, _ name: String) -> (pid: Int, tid: Int) {
            let key = "\(pid)|\(name)"
            if let tid = tracks[key] { return (pid, tid) }
            let tid = tracks.count + 1
            tracks[key] = tid
            metadata.append(.object(["name": .string("thread_name"), "ph": .string("M"), "pid": .int(pid), "tid": .int(tid),
                                     "args": .object(["name": .string(name)])]))
            return (pid, tid)
        }

        static func microseconds(_ seconds: Double) -> Int64 {
            guard seconds.isFinite else { return 0 }
            return Int64((max(0, seconds) * 1e6).rounded())
        }

        private mutating func add(_ ts: Int64, rank: Int, order: Int, _ fields: OrderedDictionary<String, JSONValue>) {
            events.append((ts, rank, order, .object(fields)))
        }

        /// A slice from `from` to `to` seconds: a `B` and its `E`.
        /// Slices on one track follow each other (each begins where the last ended, at the
        /// earliest) unless `nested`, which lies inside the track's last slice.
        @discardableResult
        mutating func slice(_ track: (pid: Int, tid: Int), _ name: String, from: Double, to: Double, category: String,
                            args: OrderedDictionary<String, JSONValue> = [:], nested: Bool = false) -> Int64 {
            // A slice lasts at least a microsecond, so its end sorts after its beginning.
            var begin = Self.microseconds(from)
            if !nested { begin = max(begin, ends[track.tid] ?? 0) }
            let end = max(begin + 1, Self.microseconds(to))
            if !nested { ends[track.tid] = end }
            order += 1
            var fields: OrderedDictionary<String, JSONValue> = ["name": .string(name), "cat": .string(category), "ph": .string("B"),
                                                                "ts": .int(Int(begin)), "pid": .int(track.pid), "tid": .int(track.tid)]
            if !args.isEmpty { fields["args"] = .object(args) }
            add(begin, rank: 2, order: order, fields)
            add(end, rank: 0, order: -order, ["name": .string(name), "cat": .string(category), "ph": .string("E"), "ts": .int(Int(end)),
                                               "pid": .int(track.pid), "tid": .int(track.tid)])
            return begin
        }

        mutating func instant(_ track: (pid: Int, tid: Int), _ name: String, at time: Double,
                              args: OrderedDictionary<String, JSONValue> = [:]) {
            let ts = Self.microseconds(time)
            order += 1
            add(ts, rank: 1, order: order, ["name": .string(name), "ph": .string("i"), "s": .string("t"), "ts": .int(Int(ts)),
                                            "pid": .int(track.pid), "tid": .int(track.tid), "args": .object(args)])
        }

        /// The player's TTFF phases as consecutive slices nested in one "time to first frame"
        /// slice that ends at the first frame.
        /// A slice that would reach back before `notBefore` (the card's previous one) is cut there,
        /// without its phases.
        mutating func phases(_ track: (pid: Int, tid: Int), _ phases: TTFFBreakdown, endingAt end: Double, notBefore: Double) {
            let parts: [(String, Double)] = [("manifest", phases.manifestMs), ("open", phases.openMs), ("probe", phases.probeMs),
                                             ("codec open", phases.codecOpenMs), ("first frame", phases.firstFrameMs)]
            let total = max(phases.totalMs, parts.reduce(0) { $0 + $1.1 })
            let start = end - total / 1000
            guard start >= notBefore else {
                slice(track, "time to first frame", from: notBefore, to: end, category: "ttff", args: ["totalMs": .double(phases.totalMs)])
                return
            }
            let begin = slice(track, "time to first frame", from: start, to: end, category: "ttff", args: ["totalMs": .double(phases.totalMs)])
            // Pushed later by the track's last slice: no room for the phases inside it.
            guard begin <= Self.microseconds(start) else { return }
            var at = start
            for (name, ms) in parts where ms > 0 {
                // A phase too short to fit before the end in whole microseconds is left out.
                guard Self.microseconds(min(end, at + ms / 1000)) > Self.microseconds(at) else { continue }
                slice(track, name, from: at, to: min(end, at + ms / 1000), category: "ttff", nested: true)
                at += ms / 1000
            }
        }

        /// `{"traceEvents": [...], "displayTimeUnit": "ms"}`, events in time order (a `B` before
        /// an `E` at the same instant when it was added first, so nesting holds per track).
        var json: JSONValue {
            let sorted = events.sorted { ($0.ts, $0.rank, $0.order) < ($1.ts, $1.rank, $1.order) }.map(\.value)
            return .object(["traceEvents": .array(metadata + sorted), "displayTimeUnit": .string("ms")])
        }
    }
}
