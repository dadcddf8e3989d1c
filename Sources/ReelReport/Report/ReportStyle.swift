import ReelCore
import ReelEngine
import ReelFeed

/// The report's colours and its one inline stylesheet. Each colour is a CSS class carrying both
/// `fill` (for SVG shapes) and `background` (for legend swatches), so a legend and the chart it
/// explains cannot disagree.
enum ReportStyle {
    /// A visibility state's colour: cool for "near" states, green for playing, warm for waiting.
    static func color(of state: VisibilityState) -> String {
        switch state {
        case .idle: "#f8fafc"
        case .prefetch: "#dbeafe"
        case .mounted: "#93c5fd"
        case .ready: "#fcd34d"
        case .active: "#22c55e"
        case .softRelease: "#a7f3d0"
        case .paused: "#c4b5fd"
        case .unmounted: "#e2e4e9"
        }
    }

    /// The CSS class of a state ("st-softRelease").
    static func stateClass(_ state: VisibilityState) -> String { "st-\(state.rawValue)" }

    /// Colours of the runs (first, second), for the histogram and the headings.
    static let runColors = ["#2563eb", "#ea580c"]

    /// The class of run `index` ("run0").
    static func runClass(_ index: Int) -> String { "run\(index % runColors.count)" }

    /// A byte series: who fetched (prefetch, playback, thumbnail) and whether the cache served it.
    static func byteClass(_ origin: SessionEvent.Origin, hit: Bool) -> String {
        "by-\(origin.rawValue)-\(hit ? "hit" : "miss")"
    }

    static func color(of origin: SessionEvent.Origin, hit: Bool) -> String {
        switch (origin, hit) {
        case (.playback, false): "#c2410c"
        case (.playback, true): "#fdba74"
        case (.prefetch, false): "#1d4ed8"
        case (.prefetch, true): "#93c5fd"
        case (.thumbnail, false): "#047857"
        case (.thumbnail, true): "#6ee7b7"
        }
    }

    /// Marks drawn over the timeline rows.
    static let playColor = "#111827"
    static let firstFrameFastColor = "#ffffff"
    static let firstFrameSlowColor = "#facc15"
    static let problemColor = "#dc2626"
    /// Preload stage ticks.
    static let stageColor = "#7c3aed"

    /// The page's stylesheet.
    static var css: String {
        var rules = [
            "*{box-sizing:border-box}",
            "body{margin:0;background:#fff;color:#1f2937;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans','Liberation Sans',sans-serif}",
            "main{max-width:1200px;margin:0 auto;padding:24px 20px 40px}",
            "h1{font-size:24px;margin:0 0 4px}",
            "h2{font-size:18px;margin:32px 0 6px;padding-top:12px;border-top:1px solid #e5e7eb}",
            "h3{font-size:15px;margin:18px 0 4px}",
            "p.note{color:#4b5563;margin:2px 0 10px;max-width:900px}",
            ".glance{display:flex;gap:16px;flex-wrap:wrap;margin:14px 0 4px}",
            ".glance div.run{flex:1 1 320px;border:1px solid #e5e7eb;border-radius:8px;padding:10px 14px;border-top-width:4px}",
            ".frame{fill:none;stroke:#d1d5db;stroke-width:1}",
            ".glance dl{display:grid;grid-template-columns:auto 1fr;gap:2px 14px;margin:6px 0 0}",
            ".glance dt{color:#6b7280}.glance dd{margin:0;font-variant-numeric:tabular-nums}",
            ".legend{display:flex;flex-wrap:wrap;gap:6px 13px;margin:4px 0;font-size:13px;color:#374151}",
            ".legend span.item{display:inline-flex;align-items:center;gap:6px}",
            ".legend span.key{width:52px;color:#6b7280}",
            ".sw{display:inline-block;width:14px;height:14px;border-radius:3px;border:1px solid rgba(0,0,0,.15)}",
            ".sw.line{height:4px;border:none;border-radius:2px}",
            ".sw.dot{width:10px;height:10px;border-radius:50%;border:1.5px solid #111827}",
            "svg{display:block;max-width:100%;height:auto;overflow:visible}",
            "svg text{font-size:11px;fill:#374151;font-family:inherit}",
            "svg text.lab{font-size:10px;fill:#4b5563}",
            "svg text.title{font-size:12px;font-weight:600;fill:#1f2937}",
            ".grid{stroke:#000;stroke-opacity:.09;stroke-width:1}",
            ".axis{stroke:#9ca3af;stroke-width:1}",
            ".wsep{stroke:#6b7280;stroke-opacity:.35;stroke-width:1}",
            ".halo{stroke:#fff;stroke-width:4}",
            ".goal{stroke:#6b7280;stroke-width:1;stroke-dasharray:4 3}",
            "table.summary{border-collapse:collapse;font-variant-numeric:tabular-nums;min-width:560px;max-width:100%}",
            "table.summary tr.long td:last-child{text-align:left}",
            "table.summary details summary{cursor:pointer;color:#374151}",
            "table.summary details code{display:block;white-space:normal;overflow-wrap:anywhere;word-break:break-all;margin:4px 0}",
            "table.summary th,table.summary td{padding:4px 14px;border-bottom:1px solid #e5e7eb;text-align:right}",
            "table.summary th:first-child,table.summary td:first-child{text-align:left;font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px}",
            "table.summary tbody tr:nth-child(even){background:#f9fafb}",
            "table.bytes{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:13px;margin:4px 0 10px}",
            "table.bytes th,table.bytes td{padding:2px 12px;text-align:right}",
            "table.bytes th:first-child,table.bytes td:first-child{text-align:left}",
            "code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px;background:#f3f4f6;padding:1px 4px;border-radius:3px}",
            ".play{fill:\(playColor)}",
            ".ff-fast{fill:\(firstFrameFastColor);stroke:\(playColor);stroke-width:1;background:\(firstFrameFastColor)}",
            ".ff-slow{fill:\(firstFrameSlowColor);stroke:\(playColor);stroke-width:1;background:\(firstFrameSlowColor)}",
            ".stall{fill:\(problemColor);fill-opacity:.85;background:\(problemColor)}",
            ".stage{fill:\(stageColor);background:\(stageColor)}",
            ".err{stroke:\(problemColor);stroke-width:2;fill:none}",
            ".sw-up{fill:#16a34a;stroke:#fff;stroke-width:.6;background:#16a34a}",
            ".sw-down{fill:#ea580c;stroke:#fff;stroke-width:.6;background:#ea580c}",
        ]
        for state in VisibilityState.allCases {
            let color = color(of: state)
            rules.append(".\(stateClass(state)){fill:\(color);background:\(color)}")
        }
        for (index, color) in runColors.enumerated() {
            rules.append(".run\(index){fill:\(color);background:\(color)}")
            rules.append(".glance div.top\(index){border-top-color:\(color)}")
            rules.append(".run\(index)-line{stroke:\(color);stroke-width:2;stroke-dasharray:6 3;background:\(color)}")
        }
        for origin in SessionEvent.Origin.allCases {
            for hit in [false, true] {
                let color = color(of: origin, hit: hit)
                rules.append(".\(byteClass(origin, hit: hit)){fill:\(color);background:\(color)}")
            }
        }
        return rules.joined(separator: "\n")
    }
}
