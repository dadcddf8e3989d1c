import Foundation
import ReelCore
import ReelEngine
import ReelReport
import ReelTestSupport
import Testing

/// Both reports as a reader sees them: each drawn by headless Chromium at 1240 px with a small
/// script added to a copy of the page that measures it and writes what it found into the page,
/// read back with `--dump-dom`. Every value of the session report's summary table (long ones like
/// `abr.variants` included) and of the sweep page's tables must sit inside the window, and the
/// sweep chart's whiskers inside its frame.
@Suite("Reports that read")
struct ReportLayoutTests {
    static let width = 1240

    /// The measuring script: each table cell's box, and the chart's frame and whiskers.
    static let probe = """
        <script>
        const cells = [];
        for (const row of document.querySelectorAll('table.summary tbody tr, table.sweep tbody tr')) {
          const tds = row.querySelectorAll('td');
          for (let i = 1; i < tds.length; i++) {
            const r = tds[i].getBoundingClientRect();
            cells.push({key: tds[0].textContent.trim(), left: r.left, right: r.right, width: r.width, text: tds[i].textContent.trim()});
          }
        }
        const frame = document.querySelector('svg rect.frame');
        const box = frame ? frame.getBoundingClientRect() : null;
        const whiskers = [...document.querySelectorAll('line.whisker')].map(l => {
          const r = l.getBoundingClientRect();
          return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
        });
        const out = document.createElement('pre');
        out.id = 'reel-layout';
        out.textContent = JSON.stringify({window: window.innerWidth, cells: cells,
          frame: box ? {left: box.left, right: box.right, top: box.top, bottom: box.bottom} : null, whiskers: whiskers});
        document.body.appendChild(out);
        </script>
        """

    struct Cell: Decodable {
        var key: String
        var left, right, width: Double
        var text: String
    }

    struct Box: Decodable {
        var left, right, top, bottom: Double
    }

    struct Layout: Decodable {
        var window: Double
        var cells: [Cell]
        var frame: Box?
        var whiskers: [Box]
    }

    /// Draws `page` in headless Chromium with the probe and returns what it measured.
    static func measure(_ page: URL, in folder: URL) async throws -> Layout {
        let chromium = try #require(Tool.find("chromium"), "chromium is not installed: `make deps` installs it")
        let html = try String(contentsOf: page, encoding: .utf8)
        let probed = folder.appendingPathComponent("probed-" + page.lastPathComponent)
        try Data(html.replacingOccurrences(of: "</body>", with: probe + "\n</body>").utf8).write(to: probed)
        let result = try await ChildProcess.run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(folder.appendingPathComponent("chromium-profile").path)", "--window-size=\(width),2000",
            "--dump-dom", probed.absoluteString,
        ], directory: folder)
        try #require(result.status == 0, "chromium exited \(result.status): \(result.stderr.suffix(2000))")
        let dom = result.stdout
        let start = try #require(dom.range(of: "<pre id=\"reel-layout\">"), "the probe wrote nothing: \(dom.suffix(500))")
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let json = String(dom[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
    }

    /// Every cell has a box, inside the window.
    static func expectInside(_ layout: Layout, page: String) {
        #expect(layout.window == Double(width), "\(page): window \(layout.window)")
        for cell in layout.cells {
            #expect(cell.width > 0 && cell.left >= 0 && cell.right <= layout.window + 0.5,
                    "\(page): the value of '\(cell.key)' is at \(cell.left)...\(cell.right), outside the \(layout.window) px window")
        }
    }

    @Test func everySummaryValueOfASessionReportIsInTheWindow() async throws {
        let folder = try makeScratchFolder("reel-report-layout")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("session.html")
        // The ladders' feed: the summary holds abr.variants, a long list.
        let result = try await ReelProcess.run([
            "feed", "simulate", "--feed", PackagePaths.samples.appendingPathComponent("video-feed-abr.json").path,
            "--serve", PackagePaths.samples.path, "--pattern", "mixed", "--seconds", "20", "--compare", "prefetch=off",
            "--report", page.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let layout = try await Self.measure(page, in: folder)
        let keys = Set(layout.cells.map(\.key))
        #expect(keys.contains("abr.variants") && keys.contains("ttffMs.p50") && layout.cells.count > 60, "\(keys.sorted())")
        Self.expectInside(layout, page: "session report")
    }

    /// A sweep of two sessions per setting: intervals within what a share can be, a "too few
    /// sessions" note, the difference in milliseconds beside a ratio of sub-millisecond TTFFs,
    /// and whiskers inside the chart.
    @Test func theSweepPageKeepsItsFiguresInTheirRangeAndItsWhiskersInTheChart() async throws {
        let folder = try makeScratchFolder("reel-sweep-layout")
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = [SweepTrace(pattern: "browse", seed: 1, seconds: 10), SweepTrace(pattern: "browse", seed: 2, seconds: 10)]
        let matrix = SweepMatrix(traces: traces, profiles: ["4g"],
                                 settings: [.baseline, SweepSetting(id: "prefetch=off", assignments: ["prefetch.enabled=false"])], shared: [])
        var summaries: [String: SessionSummary] = [:]
        for cell in matrix.cells {
            let seed = matrix.trace(cell.trace)?.seed ?? 1
            var summary = SessionSummary()
            summary.plays = 4
            // A share far apart over two sessions: a t interval would run from below 0 % to 343 %.
            summary.startedWithin50msRatio = cell.setting == "baseline" ? (seed == 1 ? 0 : 0.5) : 0.25
            let ttff = cell.setting == "baseline" ? 0.01 * Double(seed) : 4.5
            summary.ttffMs = Percentiles(count: 4, p50: ttff, p95: ttff * 2, p99: ttff * 2, max: ttff * 2)
            summary.cdn.bytes = cell.setting == "baseline" ? 3_000_000 : 1_000_000
            summary.bytesPlayed = 1_000_000
            summaries[cell.id] = summary
        }
        let analysis = SweepAnalysis(matrix: matrix, summaries: summaries, failures: [:])
        let page = SweepPage(matrix: matrix, analysis: analysis, overall: SweepAnalysis.overall(matrix: matrix, summaries: summaries),
                             cellLinks: [:]).render()
        let file = folder.appendingPathComponent("sweep.html")
        try Data(page.utf8).write(to: file)

        #expect(page.contains("too few sessions"), "no note for two sessions per setting")
        #expect(page.contains("ms)"), "no difference in milliseconds beside the ratio of sub-millisecond TTFFs")
        for match in page.matches(of: /([0-9]+\.[0-9]) %/) {
            let percent = try #require(Double(match.output.1))
            #expect(percent <= 100, "a share of \(percent) % on the page")
        }
        let layout = try await Self.measure(file, in: folder)
        Self.expectInside(layout, page: "sweep page")
        let frame = try #require(layout.frame, "no chart")
        #expect(!layout.whiskers.isEmpty)
        for whisker in layout.whiskers {
            #expect(whisker.left >= frame.left - 1 && whisker.right <= frame.right + 1
                    && whisker.top >= frame.top - 1 && whisker.bottom <= frame.bottom + 1,
                    "a whisker at \(whisker) runs out of the chart's frame \(frame)")
        }
    }
}
