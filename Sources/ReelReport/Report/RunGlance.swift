import ReelCore
import ReelEngine

/// A run at a glance, counted from its events alone (so it shows even without a summary file):
/// length, cards, plays, first frames and their speed, stalls, errors, bytes by source.
struct RunGlance: Sendable, Equatable {
    var duration = 0.0
    var events = 0
    var cards = 0
    var plays = 0
    var tappedPlays = 0
    var ttffs: [Double] = []
    var stalls = 0
    var stallMs = 0.0
    var errors = 0
    var networkBytes: Int64 = 0
    var cacheBytes: Int64 = 0

    init(_ events: [SessionEvent]) {
        self.events = events.count
        duration = events.map(\.time).max() ?? 0
        cards = Set(events.compactMap(\.card)).count
        for event in events {
            switch event.kind {
            case .playStart(let event):
                plays += 1
                if event.userIntent { tappedPlays += 1 }
            case .firstFrame(let event): ttffs.append(event.ttffMs)
            case .stall(let event):
                stalls += 1
                stallMs += event.ms
            case .error: errors += 1
            case .fetch(let fetch):
                cacheBytes = cacheBytes.saturatingAdding(fetch.cacheBytes)
                networkBytes = networkBytes.saturatingAdding(fetch.networkBytes)
            default: continue
            }
        }
    }

    /// The run's box: its title in the run's colour and a list of figures.
    func html(title: String, run: Int) -> String {
        let distribution = Distribution(ttffs)
        let fast = ttffs.filter { $0 <= TTFFHistogram.goalMs }.count
        var rows: [(String, String)] = [
            ("length", "\(ReportText.seconds(duration)), \(ReportText.grouped(Int64(events))) events"),
            ("cards", ReportText.grouped(Int64(cards))),
            ("plays", "\(plays)\(tappedPlays > 0 ? " (\(tappedPlays) tapped)" : "")"),
        ]
        if ttffs.isEmpty {
            rows.append(("first frames", "none"))
        } else {
            rows.append(("first frames", "\(ttffs.count), \(ReportText.percent(Double(fast) / Double(ttffs.count))) within 50 ms"))
            rows.append(("TTFF", "p50 \(ReportText.ms(distribution.p50)) · p95 \(ReportText.ms(distribution.p95)) · max \(ReportText.ms(distribution.max))"))
        }
        rows.append(("stalls", stalls == 0 ? "none" : "\(stalls) (\(ReportText.ms(stallMs)) in all)"))
        rows.append(("errors", errors == 0 ? "none" : String(errors)))
        rows.append(("bytes read", "\(ReportText.bytes(networkBytes)) from the network, \(ReportText.bytes(cacheBytes)) from the cache"))
        var html = "<div class=\"run top\(run % ReportStyle.runColors.count)\"><strong>\(ReportText.escape(title))</strong><dl>"
        for (name, value) in rows { html += "<dt>\(name)</dt><dd>\(ReportText.escape(value))</dd>" }
        return html + "</dl></div>\n"
    }
}
