import Benchmark
import Foundation
import ReelCore
import ReelFeed

/// The feed model's hot paths on a 10,000-widget feed (the 144-entry test catalog looped):
/// one scroll event's visibility update (goal p99 <= 50 us) and the layout of one 20-widget
/// page (goal <= 100 us).
func feedBenchmarks() {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    guard let config = try? ConfigResolver().resolve([.assignments([
        "pagination.loopCatalog=true", "pagination.maxWidgets=10000", "pagination.pageSize=20",
    ])]).config,
        let catalog = try? FeedCatalog.load(path: BenchmarkPaths.root.appendingPathComponent("Tests/Fixtures/video-feed-144.json").path)
    else {
        print("skipping the feed benchmarks: the 144-entry test catalog is missing")
        return
    }
    let api = FeedAPI(catalog: catalog, config: config)
    let pages = api.pages()

    /// Mixed scrolling (reading, flings, jumps) over the loaded feed, one event per iteration.
    final class Scroller {
        var tracker: VisibilityTracker
        let layout: FeedLayout
        let model: FeedModel
        var random = SeededRandom(seed: 1)
        var step = 0
        var time = 0.0
        var y = 0.0

        init(controller: FeedController) {
            tracker = controller.visibility
            layout = controller.layout
            model = controller.model
        }

        func next() -> Int {
            let end = layout.contentHeight - layout.viewport.height
            step += 1
            time += 0.016
            switch step % 1000 {
            case 0: y = random.unit() * end
            case 1..<200: y += 60
            default: y += 4 * (random.unit() - 0.3)
            }
            y = min(max(0, y), end)
            return tracker.scroll(to: y, at: time, layout: layout, model: model).count
        }
    }
    var controller = FeedController(config: config, screen: Size(width: 390, height: 844))
    for page in pages { _ = controller.receive(page, at: 0) }
    let scroller = Scroller(controller: controller)
    Benchmark("Visibility update of one scroll event, 10,000 widgets",
              configuration: .init(metrics: metrics, maxDuration: .seconds(3), maxIterations: 200_000)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(scroller.next())
        }
    }

    Benchmark("Layout of one 20-widget page",
              configuration: .init(metrics: metrics, maxDuration: .seconds(3), maxIterations: 2_000)) { benchmark in
        var model = FeedModel()
        var layout = FeedLayout(config: config, screen: Size(width: 390, height: 844))
        let warm = model.apply(pages[0])
        layout.append(model.items[warm.appended])
        let change = model.apply(pages[1])
        let items = model.items[change.appended]
        benchmark.startMeasurement()
        layout.append(items)
        benchmark.stopMeasurement()
        blackHole(layout)
    }
}
