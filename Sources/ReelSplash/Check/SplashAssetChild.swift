import Foundation
import OrderedCollections
import ReelCore

#if canImport(Glibc)
import Glibc
#endif

/// The child side of `ChildProcessAssetChecker`: the process reads a request from its standard
/// input (one JSON line of limits, then the asset's bytes), bounds itself (`setrlimit`: data
/// size, CPU seconds, no core file) before reading the asset, checks it with rlottie
/// (`LottieAssetCheck.run`) and writes the report as one JSON line. The process is the app's own
/// executable, started again with `argument`: an app's `main` hands that over first thing,
///
///     if CommandLine.arguments.dropFirst().first == SplashAssetChild.argument { exit(SplashAssetChild.main()) }
///
/// (`reel` itself answers to `reel splash check-asset --child`).
public enum SplashAssetChild {
    /// The argument `ChildProcessAssetChecker.currentExecutable()` starts this executable with.
    public static let argument = "--reel-splash-asset-check"

    /// Runs the check on standard input and output; returns the exit status: 0 when a report was
    /// written, 2 when the request could not be read (nothing about the asset).
    public static func main() -> Int32 {
        guard let (request, asset) = readRequest() else {
            FileHandle.standardError.write(Data("splash asset check: the request on standard input is not one\n".utf8))
            return 2
        }
        let report = LottieAssetCheck.run(asset, limits: request.limits, measuringPastLimits: request.measuringPastLimits)
        let line = Array((JSONWriter.compact(report.json) + "\n").utf8)
        var written = 0
        while written < line.count {
            let count = line.withUnsafeBytes { write(1, $0.baseAddress! + written, line.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return 2 }
            written += count
        }
        return 0
    }

    /// What the parent asks: the asset's limits, whether to measure past them.
    struct Request: Sendable, Hashable {
        var limits: SplashAssetLimits
        var measuringPastLimits: Bool

        /// The request's first line (the asset's bytes follow it).
        var line: [UInt8] {
            let fields: OrderedDictionary<String, JSONValue> = [
                "maxFPS": .double(limits.maxFPS), "maxSeconds": .double(limits.maxSeconds), "maxBytes": .int(limits.maxBytes),
                "checkMemoryBytes": .int(limits.checkMemoryBytes), "checkSeconds": .double(limits.checkSeconds),
                "measure": .bool(measuringPastLimits),
            ]
            return Array((JSONWriter.compact(.object(fields)) + "\n").utf8)
        }

        init(limits: SplashAssetLimits, measuringPastLimits: Bool) {
            self.limits = limits
            self.measuringPastLimits = measuringPastLimits
        }

        init?(line: [UInt8]) {
            guard let value = try? JSONParser.parse(bytes: line),
                  let fps = value["maxFPS"]?.number, let seconds = value["maxSeconds"]?.number,
                  case .int(let bytes)? = value["maxBytes"], case .int(let memory)? = value["checkMemoryBytes"],
                  let checkSeconds = value["checkSeconds"]?.number, case .bool(let measure)? = value["measure"],
                  memory > 0, checkSeconds > 0, checkSeconds.isFinite else { return nil }
            limits = SplashAssetLimits(maxFPS: fps, maxSeconds: seconds, maxBytes: bytes, checkMemoryBytes: memory, checkSeconds: checkSeconds)
            measuringPastLimits = measure
        }
    }

    /// Reads the request line, bounds this process, then reads the asset to the end of input.
    private static func readRequest() -> (Request, [UInt8])? {
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var request: Request?
        var assetStart = 0
        let most = LottieRenderer.maxReadBytes + 4096
        while input.count <= most {
            let count = read(0, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            input += chunk[0..<count]
            if request == nil, let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
                guard let parsed = Request(line: Array(input[..<newline])) else { return nil }
                bound(parsed.limits)
                request = parsed
                assetStart = newline + 1
            }
            if request == nil && input.count > 4096 { return nil }
        }
        guard let request else { return nil }
        return (request, Array(input[assetStart...]))
    }

    /// Whether this build carries the thread sanitizer (`make tsan`): its shadow memory is mapped as
    /// private data, so under a data limit the sanitizer itself fails to start ("Failed to mmap").
    /// Such a build keeps the CPU bound only; the memory bound is tested in the normal build.
    private static let runsUnderThreadSanitizer: Bool =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

    /// The kernel's bounds on this process, before rlottie sees a byte: its data (RLIMIT_DATA:
    /// heap, private writable mappings and thread stacks, what allocations take; unlike the
    /// address space it does not count the libraries mapped or the memory malloc only reserves),
    /// CPU time (SIGXCPU, then SIGKILL a second later), and no core file for a crash.
    private static func bound(_ limits: SplashAssetLimits) {
        func set(_ resource: Int32, _ soft: rlim_t, _ hard: rlim_t) {
            var limit = rlimit(rlim_cur: soft, rlim_max: hard)
            _ = setrlimit(__rlimit_resource_t(UInt32(resource)), &limit)
        }
        let memory = rlim_t(limits.checkMemoryBytes)
        let cpu = rlim_t(max(1, limits.checkSeconds.rounded(.up)))
        if !runsUnderThreadSanitizer { set(Int32(RLIMIT_DATA.rawValue), memory, memory) }
        set(Int32(RLIMIT_CPU.rawValue), cpu, cpu + 1)
        set(Int32(RLIMIT_CORE.rawValue), 0, 0)
    }
}
