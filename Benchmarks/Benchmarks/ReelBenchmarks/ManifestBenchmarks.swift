import Benchmark
import Foundation
import ReelManifest

/// Where the package's files are, from this file's location.
enum BenchmarkPaths {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The public conformance fixtures next to the package (`../shared/conformance`).
    static let conformance = root.deletingLastPathComponent().appendingPathComponent("shared/conformance")
}

/// Parsing cost of the manifest model: the largest conformance playlist (goal <= 10 ms) and a
/// 100,000-segment VOD playlist.
func manifestBenchmarks() {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .peakMemoryResident]

    let fixtures = BenchmarkPaths.conformance.appendingPathComponent("hls-m3u8-parser/test/fixtures/integration")
    let largest = (try? FileManager.default.contentsOfDirectory(at: fixtures, includingPropertiesForKeys: [.fileSizeKey]))?
        .filter { $0.pathExtension == "m3u8" }
        .max { ($0.fileSize ?? 0) < ($1.fileSize ?? 0) }
    if let largest, let data = try? Data(contentsOf: largest) {
        Benchmark("Parse the largest conformance playlist (\(largest.lastPathComponent))",
                  configuration: .init(metrics: metrics, maxDuration: .seconds(2))) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try ManifestLoader.parse(data, url: largest))
            }
        }
    } else {
        print("skipping the conformance benchmark: no fixtures under \(fixtures.path)")
    }

    var text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
    for index in 0..<100_000 { text += "#EXTINF:2.0,\nseg_\(index).ts\n" }
    text += "#EXT-X-ENDLIST\n"
    let big = Data(text.utf8)
    let url = URL(string: "https://cdn.example/v/index.m3u8")!
    var limits = ManifestLimits.default
    limits.maxPlaylistBytes = 64 << 20
    Benchmark("Parse a 100,000-segment playlist",
              configuration: .init(metrics: metrics, maxDuration: .seconds(3), maxIterations: 20)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ManifestLoader.parse(big, url: url, limits: limits))
        }
    }
}

private extension URL {
    var fileSize: Int? { (try? resourceValues(forKeys: [.fileSizeKey]))?.fileSize }
}
