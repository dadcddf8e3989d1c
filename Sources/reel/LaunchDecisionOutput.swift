import Foundation
import OrderedCollections
import ReelCore
import ReelLaunch
import ReelSplash

/// How `reel launch simulate` prints a decision: one line for people, one JSON object for scripts.
enum LaunchDecisionOutput {
    static func json(_ event: LaunchEvent, _ decision: LaunchDecision) -> JSONValue {
        .object([
            "t": .string(event.time.formatted(.iso8601)),
            "event": .string(event.kind.rawValue),
            "decision": .string(decision.kind),
            "splash": .optional(decision.splashID),
            "reason": .string(decision.reason.rawValue),
            "splashReason": .optional(decision.splashReason?.rawValue),
            "detail": .string(decision.detail),
            "loadingSeconds": .optional(decision.loading.map { ($0.minimumSeconds * 1000).rounded() / 1000 }),
        ])
    }

    /// "2026-11-27T08:00:00Z  launch      splash 'advent' (eligible: 'advent' until ...)".
    static func line(_ event: LaunchEvent, _ decision: LaunchDecision) -> String {
        let head = "\(event.time.formatted(.iso8601))  \(event.kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))  "
        switch decision.show {
        case .splash(let id):
            return head + "splash '\(LaunchText.escaped(id))' (\(decision.reason.rawValue): \(decision.detail))"
        case .loadingAnimation:
            let seconds = decision.loading.map { String(format: " %.1f s", $0.minimumSeconds) } ?? ""
            return head + "loadingAnimation\(seconds) (\(decision.reason.rawValue); no splash: \(why(decision)))"
        case .nothing where decision.splashReason == nil:
            return head + "nothing (\(decision.reason.rawValue): \(decision.detail))"
        case .nothing:
            return head + "nothing (\(decision.reason.rawValue); no splash: \(why(decision)))"
        }
    }

    private static func why(_ decision: LaunchDecision) -> String {
        "\(decision.splashReason?.rawValue ?? "-"): \(decision.detail)"
    }
}
