/// The challenge's link (`Network.network_simu`): one transfer at a time over a bandwidth trace.
///
/// Assumptions, all the challenge's own:
/// - A transfer of `b` bytes moves through the trace's rows from where the last one stopped;
///   row i's bandwidth holds from row i - 1's time to row i's (row 0's is never used). Only 95 %
///   of it carries payload (`payloadFactor`).
/// - Trace time moves only while something is transferred: an idle link (a policy waiting)
///   resumes the trace where it left it. So a transfer's duration depends only on the bytes sent
///   before it and its own size.
/// - Each request costs a fixed 80 ms (`requestMs`), once, on top of the transfer; there is no
///   TCP model, no loss, no parallelism.
/// - At the end of the trace it starts again from row 1 at time 0.
/// - The step rounds the delay to whole milliseconds (`floor(x + 0.5)`).
///
/// The arithmetic follows the challenge's operation for operation, so delays are bit-identical.
package struct MMGCLink: Sendable {
    package static let payloadFactor = 0.95
    package static let requestMs = 80.0

    package let trace: MMGCTrace
    /// The row whose interval the next byte goes into.
    package private(set) var row = 1
    /// Where in the trace (seconds, within the current pass) the last transfer stopped.
    package private(set) var traceTime: Double
    /// Trace seconds consumed by transfers so far, over every pass (the unrounded delays, without
    /// the per-request cost).
    package private(set) var elapsed = 0.0
    /// Bytes sent so far.
    package private(set) var bytesSent = 0

    package init(trace: MMGCTrace) {
        self.trace = trace
        traceTime = trace.seconds[0]
    }

    /// Sends `bytes`; returns the delay in milliseconds as the challenge's step sees it: the
    /// transfer time plus `requestMs`, rounded to a whole millisecond.
    package mutating func transfer(_ bytes: Int) -> Double {
        Self.rounded(transferExact(bytes))
    }

    /// Sends `bytes`; returns the unrounded delay in milliseconds (`network_simu`'s value).
    package mutating func transferExact(_ bytes: Int) -> Double {
        let delay = trace.seconds.withUnsafeBufferPointer { times in
            trace.mbps.withUnsafeBufferPointer { rates in
                Self.send(bytes, times: times, rates: rates, row: &row, traceTime: &traceTime)
            }
        }
        elapsed += delay
        bytesSent += bytes
        return delay * 1000.0 + Self.requestMs
    }

    /// The transfer itself: moves `row` and `traceTime` on by `bytes`; returns its seconds
    /// (the oracle steps many positions of one trace with it).
    @inline(__always)
    static func send(_ bytes: Int, times: UnsafeBufferPointer<Double>, rates: UnsafeBufferPointer<Double>, row: inout Int,
                     traceTime: inout Double) -> Double {
        let size = Double(bytes)
        var delay = 0.0
        var sent = 0.0
        while true {
            let throughput = rates[row] * 1_000_000.0 / 8.0
            let duration = times[row] - traceTime
            let payload = throughput * duration * payloadFactor
            if sent + payload > size {
                let fraction = (size - sent) / throughput / payloadFactor
                delay += fraction
                traceTime += fraction
                return delay
            }
            sent += payload
            delay += duration
            traceTime = times[row]
            row += 1
            if row >= rates.count {
                row = 1
                traceTime = 0
            }
        }
    }

    /// The step's rounding of a delay in milliseconds (`math.floor(delay + 0.5)`).
    @inline(__always)
    static func rounded(_ milliseconds: Double) -> Double { (milliseconds + 0.5).rounded(.down) }
}
