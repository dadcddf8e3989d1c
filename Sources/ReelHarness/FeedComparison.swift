import Foundation
import OrderedCollections
import ReelCore
import ReelEngine

/// The same trace run twice (`--compare key=value`): `a` with the configuration as given, `b`
/// with one key overridden, each with a fresh cache; printed side by side with `b / a` ratios.
package struct FeedComparison: Sendable {
    package var a: FeedRunResult
    package var b: FeedRunResult
    /// The override as given ("prefetch=off").
    package var override: String

    package init(a: FeedRunResult, b: FeedRunResult, override: String) {
        self.a = a
        self.b = b
        self.override = override
    }

    /// Runs `a` then `b` (one after the other, so they do not share the machine).
    package static func run(_ request: FeedRunRequest, a: ReelConfig, b: ReelConfig, override: String) async throws -> FeedComparison {
        let (first, second) = try await runs(request, a: a, b: b, override: override)
        guard let second else { throw ReelError(.cancelled, "the comparison was stopped before its second run") }
        return FeedComparison(a: first, b: second, override: override)
    }

    /// Runs `a` then `b`, as `run` does; `b` is nil when the request's `stop` came during `a`
    /// (what ran is `a` alone, and a stopped comparison still shows it).
    package static func runs(_ request: FeedRunRequest, a: ReelConfig, b: ReelConfig,
                            override: String) async throws -> (a: FeedRunResult, b: FeedRunResult?) {
        let first = try await FeedRun.run(request, config: a, title: "a")
        if request.stop?.isCancelled == true { return (first, nil) }
        let second = try await FeedRun.run(request, config: b, title: "b: \(override)")
        return (first, second)
    }

    /// The `--set` assignment an override stands for: `prefetch=off` (or `on`) is shorthand for
    /// `prefetch.enabled=false` (`true`); anything else is a configuration `key=value` as is.
    package static func assignment(_ override: String) throws -> String {
        guard let equals = override.firstIndex(of: "="), equals != override.startIndex else {
            throw ReelError(.invalidInput, "--compare wants key=value, such as prefetch=off or decoder.poolSize=2; got '\(override)'")
        }
        let key = override[..<equals], value = override[override.index(after: equals)...]
        if key == "prefetch", ["off", "on", "false", "true"].contains(value.lowercased()) {
            return "prefetch.enabled=\(["on", "true"].contains(value.lowercased()))"
        }
        return override
    }

    /// `{a: summary, b: summary, ratios: {key: b / a}}`.
    package var json: JSONValue {
        .object(["a": a.summary.json, "b": b.summary.json, "ratios": SessionSummary.ratios(a.summary, b.summary)])
    }
}

extension FeedComparison {
    /// Where the second run's events go when the first run's go to `path`: `out.jsonl` ->
    /// `out-b.jsonl` (`-b` before the extension, or at the end without one).
    package static func secondEventsPath(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let base = url.deletingPathExtension().lastPathComponent + "-b"
        let name = ext.isEmpty ? base : "\(base).\(ext)"
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }
}
