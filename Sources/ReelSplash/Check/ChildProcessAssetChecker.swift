import Foundation
import ReelCore

#if canImport(Glibc)
import Glibc
#endif

/// Checks splash assets in a child process, the way an app survives an asset that makes rlottie
/// allocate or loop without end (rlottie cannot be bounded from inside a process): the child
/// (`SplashAssetChild`) bounds its own memory (`limits.checkMemoryBytes`) and CPU time
/// (`limits.checkSeconds`) before reading the asset, and is killed when it outlives twice that
/// in wall-clock time (a check stuck without using the CPU; the margin keeps a busy machine's
/// launch from refusing an asset that only waited for a core). An asset whose check crashed, ran
/// out of memory or time is refused with that problem; the app goes on.
///
/// The child is an executable that hands `SplashAssetChild.main()` its standard input and
/// output: the app's own (`currentExecutable()`, its `main` checking for
/// `SplashAssetChild.argument`), or `reel splash check-asset --child`.
public struct ChildProcessAssetChecker: SplashAssetChecker {
    public var executable: URL
    public var arguments: [String]

    /// Runs `executable` with `arguments` for each check.
    public init(executable: URL, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// This process's own executable (`/proc/self/exe`), started with `arguments`.
    public static func currentExecutable(arguments: [String] = [SplashAssetChild.argument]) -> ChildProcessAssetChecker {
        ChildProcessAssetChecker(executable: URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                                                     ?? CommandLine.arguments[0]),
                                 arguments: arguments)
    }

    public func check(_ bytes: [UInt8], limits: SplashAssetLimits, measuringPastLimits: Bool) async throws -> SplashAssetReport {
        let request = SplashAssetChild.Request(limits: limits, measuringPastLimits: measuringPastLimits)
        // A crash in the child writes no backtrace (the Swift runtime's takes seconds) and no core.
        let process = BoundedProcess(executable: executable.path, arguments: arguments,
                                     environment: ["SWIFT_BACKTRACE": "enable=no"], seconds: 2 * limits.checkSeconds)
        let input = request.line + bytes
        let outcome = try await BlockingPool.shared.run { cancellation in try process.run(input: input, cancellation: cancellation) }
        return try report(outcome, bytes: bytes.count, limits: limits)
    }

    /// The child's report, or one saying how the check ended; throws when the child could not
    /// check at all.
    func report(_ outcome: BoundedProcess.Outcome, bytes: Int, limits: SplashAssetLimits) throws -> SplashAssetReport {
        let stderr = String(decoding: outcome.stderr, as: UTF8.self)
        let memory = "\(limits.checkMemoryBytes >> 20) MiB"
        var report = SplashAssetReport(bytes: bytes)
        switch outcome.exit {
        case .exited(0):
            guard let line = outcome.stdout.split(separator: UInt8(ascii: "\n")).first,
                  let value = try? JSONParser.parse(bytes: Array(line)), let read = SplashAssetReport(json: value) else {
                throw ReelError(.internalFailure, "splash asset checker '\(executable.path)' wrote no report: \(Self.tail(stderr))")
            }
            report = read
        case .timedOut:
            report.problems = ["checking it took more than \(JSONWriter.number(2 * limits.checkSeconds)) s, twice launch.splash.checkSeconds: rlottie was stopped"]
        case .cancelled:
            throw CancellationError()
        case .signaled(let signal) where signal == SIGXCPU || signal == SIGKILL:
            report.problems = ["checking it used more than \(JSONWriter.number(limits.checkSeconds)) s of CPU (launch.splash.checkSeconds): rlottie was stopped"]
        case .signaled(let signal):
            // What an allocation refused by RLIMIT_DATA leaves on stderr: C++'s, glibc's, the Swift
            // runtime's, a thread that could not get its stack.
            let outOfMemory = ["bad_alloc", "annot allocate", "out of memory", "allocation failed", "Could not allocate",
                               "Resource temporarily unavailable"].contains { stderr.contains($0) }
            report.problems = [outOfMemory
                ? "rlottie needs more than the \(memory) a check may use (launch.splash.checkMemoryMiB)"
                : "rlottie crashed checking it (signal \(signal), \(String(cString: strsignal(signal))))"]
        case .exited(let status):
            // Not the child's way to end (a report, or a signal when rlottie fails): the program
            // is not a checker, or not this version of one.
            throw ReelError(.internalFailure, "splash asset checker '\(executable.path)' ended with status \(status): \(Self.tail(stderr))")
        }
        report.usage = outcome.usage
        return report
    }

    /// The last line of what the child printed, for a message.
    private static func tail(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? "nothing on stderr"
        return LaunchText.escaped(String(line.suffix(300)))
    }
}
