import Foundation
import ReelCore

/// How long a play goes on while its fetches fail, so that a stalled or missing segment costs
/// at most one timeout and one retry and a dead stream ends instead of paying the timeout for
/// every remaining segment (or reloading a live playlist forever). Failures in a row are counted
/// and timed from the start of the first failed request; past `maxConsecutiveFailures`, or once
/// `timeBudget` has passed since that start, the play gives up with the errors it met. Media
/// bytes arriving end the run of failures. Pure: events and times in (durations since the
/// play began), a verdict out; `InputBridge` performs it.
public struct FailureBudget: Sendable {
    public enum Verdict: Sendable {
        case goOn
        case giveUp(ReelError)
    }

    public let maxConsecutiveFailures: Int
    public let timeBudget: Duration
    /// The failures of the current run, oldest first.
    public private(set) var failures: [ReelError] = []
    /// When the first request of the current run of failures started.
    public private(set) var failingSince: Duration?
    public private(set) var gaveUp: ReelError?

    public init(maxConsecutiveFailures: Int, timeBudget: Duration) {
        self.maxConsecutiveFailures = max(1, maxConsecutiveFailures)
        self.timeBudget = timeBudget
    }

    /// The budget a play gets from its network options: `maxConsecutiveFailures` in a row, and
    /// two stall timeouts with a retry's backoff (one stalled request and its retry).
    public init(_ options: NetworkOptions) {
        self.init(maxConsecutiveFailures: options.maxConsecutiveFailures,
                  timeBudget: .milliseconds(2 * (options.lowSpeedTimeMs + options.retryBackoffMs)))
    }

    /// A request that started at `started` failed at `now` (after its own retries).
    public mutating func failed(_ error: ReelError, started: Duration, now: Duration) -> Verdict {
        if let gaveUp { return .giveUp(gaveUp) }
        // A cancel is not a failure, and a miss of an offline play costs no time (it fails at once).
        if error.code == .cancelled || error.code == .offline { return .goOn }
        failures.append(error)
        failingSince = min(failingSince ?? started, started)
        if failures.count >= maxConsecutiveFailures || now - (failingSince ?? now) >= timeBudget {
            return giveUp(now: now)
        }
        return .goOn
    }

    /// Media bytes arrived: the run of failures is over.
    public mutating func progressed() {
        guard gaveUp == nil, failingSince != nil else { return }
        failures = []
        failingSince = nil
    }

    /// When the time budget of the current run of failures runs out, if one is under way: a
    /// request blocked past it (a second stall) is given up on without waiting for its end.
    public var deadline: Duration? {
        guard gaveUp == nil, let failingSince else { return nil }
        return failingSince + timeBudget
    }

    /// The deadline passed at `now` with no bytes since: give up if the run still goes on.
    public mutating func deadlinePassed(now: Duration) -> Verdict {
        if let gaveUp { return .giveUp(gaveUp) }
        guard let deadline, now >= deadline else { return .goOn }
        return giveUp(now: now)
    }

    private mutating func giveUp(now: Duration) -> Verdict {
        let seconds = (now - (failingSince ?? now)).seconds
        let last = failures.last.map { ": \($0.description)" } ?? ""
        let error = ReelError(failures.last?.code == .timeout ? .timeout : .networkFailed,
                              "gave up after \(failures.count) failed fetch\(failures.count == 1 ? "" : "es") in a row over \(String(format: "%.1f", seconds)) s\(last)")
        gaveUp = error
        return .giveUp(error)
    }
}
