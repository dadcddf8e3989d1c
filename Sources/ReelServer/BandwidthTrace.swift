import Foundation
import ReelCore

/// A network whose bandwidth and latency change over time, as the CDN simulator plays it: lines
/// of `seconds kbps [latencyMs]`, each step holding until the next line's time. The last line
/// marks the trace's end: past it the trace loops back to its start (`loop`, the default) or
/// stays at the last line's values (`hold`; a `# end: hold` line in the file asks for it).
package struct BandwidthTrace: Sendable, Hashable, Codable {
    /// What happens after the last line's time.
    package enum End: String, Sendable, Hashable, Codable, CaseIterable {
        case loop, hold
    }

    /// From `start` seconds on (until the next step), this bandwidth and latency.
    package struct Step: Sendable, Hashable, Codable {
        package var start: Double
        package var kbps: Int
        package var latencyMilliseconds: Int

        package init(start: Double, kbps: Int, latencyMilliseconds: Int) {
            self.start = start
            self.kbps = kbps
            self.latencyMilliseconds = latencyMilliseconds
        }
    }

    /// The trace's name in profiles and reports (its file name).
    package private(set) var name: String
    package private(set) var steps: [Step]
    package private(set) var end: End

    /// Builds a trace from steps, checked as a file's are (`parse`).
    package init(name: String, steps: [Step], end: End = .loop) throws {
        self.name = name
        self.steps = steps
        self.end = end
        try validate(context: "bandwidth trace '\(name)'")
    }

    /// Seconds after which a looping trace starts over: the last line's time.
    package var length: Double { steps.last?.start ?? 0 }

    /// Whether it repeats: looping, with at least one step before its end line.
    var repeats: Bool { end == .loop && steps.count >= 2 && length > 0 }

    /// The step in force `elapsed` seconds after the trace started, and when it ends (in seconds
    /// since the start; nil when it lasts forever).
    package func step(at elapsed: Double) -> (step: Step, until: Double?) {
        let time = max(0, elapsed)
        if repeats {
            let lap = (time / length).rounded(.down)
            let local = time - lap * length
            // The last line only marks the end of a lap.
            let index = lastStep(atOrBefore: local, among: steps.count - 1)
            return (steps[index], lap * length + steps[index + 1].start)
        }
        let index = lastStep(atOrBefore: time, among: steps.count)
        return (steps[index], index + 1 < steps.count ? steps[index + 1].start : nil)
    }

    /// The last of the first `count` steps starting at or before `time` (a binary search: a
    /// trace may have a million steps).
    private func lastStep(atOrBefore time: Double, among count: Int) -> Int {
        var low = 0, high = max(0, count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if steps[middle].start <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Reads a trace: one step per line (`seconds kbps [latencyMs]`, blank lines and `#` comments
    /// skipped, `# end: loop|hold` sets the end). A line without a latency keeps the previous
    /// line's (`latency` for the first). The `seconds Mbps` format most ABR studies use
    /// (Pensieve's cooked traces, Norway HSDPA, FCC, the MMGC 2022 challenge: a fractional
    /// bandwidth in megabits per second) is read too: a file whose bandwidths have a decimal
    /// point, or that says `# unit: mbps`. Errors name the trace, the line and the cause.
    package static func parse(_ text: String, name: String, end: End? = nil, latency firstLatency: Int = 0) throws -> BandwidthTrace {
        var steps: [Step] = []
        var fileEnd: End?
        var latency = firstLatency
        let megabits = usesMegabits(text)
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let comment = line.dropFirst().trimmingCharacters(in: .whitespaces).lowercased()
                if comment.hasPrefix("end:") {
                    let value = comment.dropFirst(4).trimmingCharacters(in: .whitespaces)
                    guard let parsed = End(rawValue: value) else {
                        throw ReelError(.invalidInput, "bandwidth trace '\(name)' line \(number): '\(value)' is not an end (use loop or hold)")
                    }
                    fileEnd = parsed
                }
                continue
            }
            if megabits {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
                guard fields.count == 2, let seconds = Double(fields[0]), seconds.isFinite, let mbps = Double(fields[1]),
                      mbps.isFinite, mbps >= 0, mbps < 1_000_000 else {
                    throw ReelError(.invalidInput, "bandwidth trace '\(name)' line \(number): expected 'seconds Mbps', found '\(line)'")
                }
                guard steps.count < maxSteps else {
                    throw ReelError(.invalidInput, "bandwidth trace '\(name)' has more than \(maxSteps) lines")
                }
                steps.append(Step(start: seconds, kbps: Int((mbps * 1000).rounded()), latencyMilliseconds: latency))
                try check(steps, at: steps.count - 1, context: "bandwidth trace '\(name)' line \(number)")
                continue
            }
            guard steps.count < maxSteps else {
                throw ReelError(.invalidInput, "bandwidth trace '\(name)' has more than \(maxSteps) lines")
            }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            guard fields.count == 2 || fields.count == 3 else {
                throw ReelError(.invalidInput, "bandwidth trace '\(name)' line \(number): expected 'seconds kbps [latencyMs]', found '\(line)'")
            }
            guard let seconds = Double(fields[0]), seconds.isFinite else {
                throw ReelError(.invalidInput, "bandwidth trace '\(name)' line \(number): '\(fields[0])' is not a time in seconds")
            }
            guard let kbps = Int(fields[1]) else {
                throw ReelError(.invalidInput, "bandwidth trace '\(name)' line \(number): '\(fields[1])' is not a whole number of kbps")
            }
            if fields.count == 3 {
                guard let value = Int(fields[2]) else {
                    throw ReelError(.invalidInput, "bandwidth trace '\(name)' line \(number): '\(fields[2])' is not a whole number of milliseconds")
                }
                latency = value
            }
            steps.append(Step(start: seconds, kbps: kbps, latencyMilliseconds: latency))
            try check(steps, at: steps.count - 1, context: "bandwidth trace '\(name)' line \(number)")
        }
        let trace = BandwidthTrace(unchecked: name, steps: steps, end: end ?? fileEnd ?? .loop)
        try trace.validate(context: "bandwidth trace '\(name)'")
        return trace
    }

    /// Whether `text` is in the `seconds Mbps` format: it says `# unit: mbps`, or a bandwidth
    /// (the second field of a line) has a decimal point or an exponent.
    static func usesMegabits(_ text: String) -> Bool {
        for rawLine in text.split(whereSeparator: \.isNewline).prefix(10_000) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                let comment = line.dropFirst().trimmingCharacters(in: .whitespaces).lowercased()
                if comment.hasPrefix("unit:") { return comment.dropFirst(5).trimmingCharacters(in: .whitespaces) == "mbps" }
                continue
            }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            if fields.count >= 2, fields[1].contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return true }
        }
        return false
    }

    /// Reads the trace file at `path` (named by its file name); errors name the path.
    package static func load(path: String, end: End? = nil, latency: Int = 0) throws -> BandwidthTrace {
        let bytes = try FileBytes.read(path, what: "bandwidth trace", code: .notFound)
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw ReelError(.invalidInput, "bandwidth trace '\(path)' is not UTF-8 text")
        }
        // Messages name the path; the trace is then named by its file name.
        var trace = try parse(text, name: path, end: end, latency: latency)
        trace.name = URL(fileURLWithPath: path).lastPathComponent
        return trace
    }

    /// Lines a trace may have.
    package static let maxSteps = 1_000_000

    /// The latest time a line may have: 365 days, far more than any session, and far inside what
    /// the simulator's nanosecond clock can count (a line at 2e10 s would overflow it).
    package static let maxSeconds: Double = 365 * 86_400

    private init(unchecked name: String, steps: [Step], end: End) {
        self.name = name
        self.steps = steps
        self.end = end
    }

    /// Step `index` on its own and against the one before it.
    private static func check(_ steps: [Step], at index: Int, context: String) throws {
        let last = steps[index]
        if index == 0 && last.start != 0 {
            throw ReelError(.invalidInput, "\(context): the first line must be at 0 seconds, not \(last.start)")
        }
        if last.start > maxSeconds {
            throw ReelError(.invalidInput, "\(context): time \(last.start) s is past the limit of \(Int(maxSeconds)) s (365 days)")
        }
        if index > 0 && last.start <= steps[index - 1].start {
            throw ReelError(.invalidInput, "\(context): time \(last.start) s does not come after \(steps[index - 1].start) s")
        }
        if !(0...10_000_000).contains(last.kbps) {
            throw ReelError(.invalidInput, "\(context): \(last.kbps) kbps is outside 0...10000000")
        }
        if !(0...60_000).contains(last.latencyMilliseconds) {
            throw ReelError(.invalidInput, "\(context): latency \(last.latencyMilliseconds) ms is outside 0...60000")
        }
    }

    /// The whole trace: ordered steps from 0, and bandwidth somewhere it can be reached forever
    /// (a trace of only 0 kbps, or holding a last line of 0 kbps, would stall every transfer).
    private func validate(context: String) throws {
        guard !steps.isEmpty else { throw ReelError(.invalidInput, "\(context) has no lines") }
        for index in steps.indices { try Self.check(steps, at: index, context: context) }
        if repeats {
            guard steps.dropLast().contains(where: { $0.kbps > 0 }) else {
                throw ReelError(.invalidInput, "\(context): every step has 0 kbps; a transfer would never end")
            }
        } else if steps.last?.kbps == 0 {
            throw ReelError(.invalidInput, "\(context): it holds 0 kbps at its end; a transfer would never end")
        }
    }
}
