/// What a link following a `NetworkProfile` can carry over time, indexed once when the profile
/// takes effect so that pacing costs the same whatever the trace's length: the bytes carried
/// from the profile's start to each step's start (a running sum), so "when has the link carried
/// N more bytes" is a binary search, and a looping trace's whole laps are one division. Times
/// are nanoseconds since the profile took effect; every conversion saturates instead of trapping.
package struct LinkSchedule: Sendable {
    private enum Shape: Sendable {
        case unlimited
        case fixed(bytesPerSecond: Double)
        /// `starts[i]` is when step i begins; `carried[i]` the bytes carried before it; `rates[i]`
        /// its bytes per second. Looping: the last start is the lap's end (its own rate unused);
        /// otherwise the last step lasts for good.
        case trace(starts: [UInt64], rates: [Double], carried: [Double], loops: Bool)
    }

    private let shape: Shape

    package init(_ profile: NetworkProfile) {
        guard let trace = profile.trace else {
            shape = profile.bandwidthKbps.map { .fixed(bytesPerSecond: Double($0) * 1000 / 8) } ?? .unlimited
            return
        }
        // The nearest nanosecond: 3e-6 s is 2999.9999999999995 ns in binary.
        let starts = trace.steps.map { Self.nanoseconds(($0.start * 1e9).rounded()) }
        let rates = trace.steps.map { Double($0.kbps) * 1000 / 8 }
        var carried = [0.0]
        for index in 1..<max(1, starts.count) {
            carried.append(carried[index - 1] + Self.bytes(rates[index - 1], over: starts[index] - starts[index - 1]))
        }
        // `BandwidthTrace` guarantees a step with bandwidth within a lap, or a last step with some.
        shape = .trace(starts: starts, rates: rates, carried: carried, loops: trace.repeats)
    }

    /// True when the link has no limit.
    package var isUnlimited: Bool {
        if case .unlimited = shape { return true }
        return false
    }

    /// When a link idle at `start` has carried `byteCount` more bytes (nil: never, or no limit).
    package func finish(_ byteCount: Int, from start: UInt64) -> UInt64? {
        let count = Double(max(0, byteCount))
        switch shape {
        case .unlimited:
            return nil
        case .fixed(let rate):
            return Self.adding(start, Self.nanoseconds(count * 1e9 / rate))
        case .trace(let starts, let rates, let carried, let loops):
            guard count > 0 else { return start }
            let target = Self.carried(at: start, starts, rates, carried, loops) + count
            return Self.time(whenCarried: target, starts, rates, carried, loops).map { max($0, start) }
        }
    }

    /// Bytes the link carries between two times (nil: no limit).
    package func carried(between start: UInt64, and end: UInt64) -> Double? {
        guard end > start else { return 0 }
        switch shape {
        case .unlimited:
            return nil
        case .fixed(let rate):
            return Self.bytes(rate, over: end - start)
        case .trace(let starts, let rates, let carried, let loops):
            return Self.carried(at: end, starts, rates, carried, loops) - Self.carried(at: start, starts, rates, carried, loops)
        }
    }

    /// Bytes the trace carries from 0 to `time`.
    private static func carried(at time: UInt64, _ starts: [UInt64], _ rates: [Double], _ carried: [Double], _ loops: Bool) -> Double {
        var local = time
        var laps = 0.0
        if loops, let lap = starts.last, lap > 0 {
            laps = Double(time / lap)
            local = time % lap
        }
        let steps = loops ? starts.count - 1 : starts.count
        let index = lastIndex(starts, count: steps, atOrBefore: local)
        return laps * (loops ? carried[starts.count - 1] : 0) + carried[index] + bytes(rates[index], over: local - starts[index])
    }

    /// The earliest time by which the trace has carried `target` bytes, or nil when it never does.
    private static func time(whenCarried target: Double, _ starts: [UInt64], _ rates: [Double], _ carried: [Double],
                             _ loops: Bool) -> UInt64? {
        guard target > 0 else { return 0 }
        if loops, let lap = starts.last, let lapBytes = carried.last, lap > 0, lapBytes > 0 {
            var laps = (target / lapBytes).rounded(.down)
            var rest = target - laps * lapBytes
            // Exactly a whole number of laps: done within the last one, not at the next's start.
            if rest <= 0 {
                laps -= 1
                rest = lapBytes
            }
            return adding(multiplying(lap, laps), within(rest, starts, rates, carried, steps: starts.count - 1))
        }
        guard let last = carried.last, let start = starts.last, let rate = rates.last else { return nil }
        if target > last {
            guard rate > 0 else { return nil }
            return adding(start, nanoseconds((target - last) * 1e9 / rate))
        }
        return within(target, starts, rates, carried, steps: starts.count - 1)
    }

    /// When `target` bytes (0 < target <= carried[steps]) have been carried within the first
    /// `steps` steps: in the first step that ends with them carried, at its rate.
    private static func within(_ target: Double, _ starts: [UInt64], _ rates: [Double], _ carried: [Double], steps: Int) -> UInt64 {
        var low = 0, high = max(0, steps - 1)
        while low < high {
            let middle = (low + high) / 2
            if carried[middle + 1] >= target { high = middle } else { low = middle + 1 }
        }
        // carried[low] < target <= carried[low + 1], so the step carries bytes.
        guard rates[low] > 0 else { return starts[low] }
        let end = low + 1 < starts.count ? starts[low + 1] : .max
        return min(end, adding(starts[low], nanoseconds((target - carried[low]) * 1e9 / rates[low])))
    }

    /// The last of the first `count` starts at or before `time` (0 at least).
    private static func lastIndex(_ starts: [UInt64], count: Int, atOrBefore time: UInt64) -> Int {
        var low = 0, high = max(0, count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }

    private static func bytes(_ rate: Double, over nanoseconds: UInt64) -> Double {
        Double(nanoseconds) * rate / 1e9
    }

    /// `value` nanoseconds rounded up, saturating at `UInt64.max` (and 0 below).
    static func nanoseconds(_ value: Double) -> UInt64 {
        guard value > 0 else { return 0 }
        guard value < 18_446_744_073_709_549_568 else { return .max }
        return UInt64(value.rounded(.up))
    }

    private static func adding(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    private static func multiplying(_ a: UInt64, _ count: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        guard count < 18_446_744_073_709_549_568 else { return .max }
        let (product, overflow) = a.multipliedReportingOverflow(by: UInt64(count))
        return overflow ? .max : product
    }
}
