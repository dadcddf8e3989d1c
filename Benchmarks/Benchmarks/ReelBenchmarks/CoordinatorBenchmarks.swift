import Benchmark
import Foundation
import ReelCore
import ReelFeed

/// The feed coordinator's cost per input: one scroll sample through visibility, the play rules,
/// prediction and preload targets, with 500 cards loaded (goal p99 <= 50 us).
func coordinatorBenchmarks() {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    guard let config = try? ConfigResolver().resolve([.assignments([
        "pagination.loopCatalog=true", "pagination.maxWidgets=400", "pagination.pageSize=20",
    ])]).config,
        let catalog = try? FeedCatalog.load(path: BenchmarkPaths.root.appendingPathComponent("Tests/Fixtures/video-feed-144.json").path)
    else {
        fatalError("the coordinator benchmark needs Tests/Fixtures/video-feed-144.json and its configuration keys")
    }
    let base = URL(string: "https://cdn.test/")!
    var coordinator = FeedCoordinator(config: config, parameters: .init(config: config, baseURL: base),
                                      screen: Size(width: 390, height: 844))
    _ = coordinator.handle(.show, at: 0)
    for page in FeedAPI(catalog: catalog, config: config).pages() {
        _ = coordinator.handle(.page(page), at: 0)
    }

    /// Mixed scrolling (reading, flings, jumps) at 60 Hz over the loaded feed.
    final class Scroller {
        var coordinator: FeedCoordinator
        var random = SeededRandom(seed: 1)
        var step = 0
        var time = 0.0
        var y = 0.0
        let end: Double

        init(_ coordinator: FeedCoordinator) {
            self.coordinator = coordinator
            let layout = coordinator.controller.layout
            end = layout.contentHeight - layout.viewport.height
        }

        func next() -> Int {
            step += 1
            time += 1.0 / 60
            switch step % 1000 {
            case 0: y = random.unit() * end
            case 1..<200: y += 60
            default: y += 4 * (random.unit() - 0.3)
            }
            y = min(max(0, y), end)
            return coordinator.handle(.scroll(y: y, carousels: [:], line: 0), at: time).count
        }
    }
    let scroller = Scroller(coordinator)
    Benchmark("Coordinator: one scroll sample, \(coordinator.controller.layout.cardCount) cards loaded",
              configuration: .init(metrics: metrics, maxDuration: .seconds(3), maxIterations: 200_000)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(scroller.next())
        }
    }
}
