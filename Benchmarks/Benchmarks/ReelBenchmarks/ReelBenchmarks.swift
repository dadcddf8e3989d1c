import Benchmark

/// Reel's benchmarks, one registration function per area; run them with `make bench`
/// (`swift package benchmark`). Targets from the issues are checked by reading the numbers,
/// never asserted in tests.
let benchmarks: @Sendable () -> Void = {
    manifestBenchmarks()
    feedBenchmarks()
    coordinatorBenchmarks()
    schedulerBenchmarks()
    cacheBenchmarks()
    prefetchBenchmarks()
    launchBenchmarks()
}
