import ReelCore

/// The Chrome trace event format's rules a trace must keep to open in Perfetto: every event has
/// `ph`, `pid` and `tid`; timestamps are whole microseconds that never go back on a track; a `B`
/// is closed by its `E` on the same track, innermost first.
package enum ChromeTraceRules {
    /// The rule breaks in a trace, empty when it keeps them.
    package static func violations(_ trace: JSONValue) -> [String] {
        guard let events = trace["traceEvents"]?.array else { return ["no traceEvents array"] }
        var problems: [String] = []
        var stacks: [String: [String]] = [:]
        var last: [String: Int] = [:]
        for (index, event) in events.enumerated() {
            guard let ph = event["ph"]?.string, let pid = event["pid"], let tid = event["tid"] else {
                problems.append("event \(index) lacks ph, pid or tid")
                continue
            }
            if ph == "M" { continue }
            guard case .int(let ts)? = event["ts"], ts >= 0 else {
                problems.append("event \(index): ts is not a whole number of microseconds")
                continue
            }
            let track = "\(pid)/\(tid)"
            if let previous = last[track], ts < previous { problems.append("event \(index): ts goes back on track \(track)") }
            last[track] = ts
            let name = event["name"]?.string ?? ""
            switch ph {
            case "B": stacks[track, default: []].append(name)
            case "E":
                guard let open = stacks[track]?.popLast() else { problems.append("event \(index): E without B on \(track)"); continue }
                if open != name { problems.append("event \(index): E '\(name)' closes B '\(open)' on \(track)") }
            case "i", "X": continue
            default: problems.append("event \(index): unexpected ph '\(ph)'")
            }
        }
        for (track, stack) in stacks where !stack.isEmpty { problems.append("unclosed \(stack) on \(track)") }
        return problems
    }
}
