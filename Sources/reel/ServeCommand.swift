#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Dispatch
import Foundation
import ReelCore
import ReelServer

/// `reel serve`: the CDN simulator from the command line. Prints its URL on the first line,
/// serves until SIGINT or SIGTERM, then prints the bill.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a directory like a CDN seen from a phone: Range, keep-alive, network profiles, faults.",
        discussion: """
            Prints the listening URL (http://HOST:PORT/) on the first line of standard output, serves \
            until SIGINT or SIGTERM, then prints the CDN bill: requests, body bytes, connections, \
            statuses and injected faults, in total and per path. Faults are drawn from --fault-seed, per path \
            and per request number, so the same seed gives the same faults.
            """
    )

    @Argument(help: "The directory to serve. Nothing outside it is ever read.")
    var directory: String

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free port (read it from the first line of output).")
    var port = 0

    @Option(help: "Network profile: wifi (10 ms, 40000 kbps), 4g (50 ms, 8000 kbps), 3g (200 ms, 1500 kbps), offline (every connection closed unanswered), unlimited (the default), or trace:FILE (as --bandwidth-trace). Bandwidth is per client address: its connections share it.")
    var profile: String?

    @Option(name: .customLong("bandwidth-trace"), help: ArgumentHelp(
        "Follow a bandwidth trace: lines of 'seconds kbps [latencyMs]', each holding until the next; the last line ends the trace (see --trace-end).",
        valueName: "file"))
    var bandwidthTrace: String?

    @Option(name: .customLong("trace-end"), help: "After a trace's last line: loop (start over) or hold (stay at the last line). Default: the file's '# end:' line, else loop.")
    var traceEnd: String?

    @Option(name: .customLong("latency-ms"), help: "Delay before each response head, in milliseconds (overrides the profile's).")
    var latencyMilliseconds: Int?

    @Option(name: .customLong("bandwidth-kbps"), help: "Bandwidth of each connection in kilobits per second (overrides the profile's).")
    var bandwidthKbps: Int?

    @OptionGroup var faults: FaultOptions

    /// The name `--fault-seed` had before feed runs took fault options too (they have a `--seed`
    /// of their own).
    @Option(name: .customLong("seed"), help: .hidden)
    var legacySeed: UInt64?

    @Option(help: "Also write the bill as JSON to this file on exit.")
    var statsFile: String?

    @Flag(help: "Print the bill as JSON instead of a table.")
    var json = false

    /// Accepted like every command's; the simulator itself reads no configuration key.
    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if let profile, !profile.lowercased().hasPrefix("trace:"), NetworkProfile.named(profile) == nil {
            let names = NetworkProfile.builtIn.map(\.name).joined(separator: ", ")
            throw ValidationError("unknown profile '\(profile)'; use one of: \(names)")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is outside 0...65535") }
        if let latencyMilliseconds, latencyMilliseconds < 0 {
            throw ValidationError("--latency-ms \(latencyMilliseconds) is negative")
        }
        if let bandwidthKbps, bandwidthKbps <= 0 {
            throw ValidationError("--bandwidth-kbps \(bandwidthKbps) must be positive")
        }
        if let traceEnd, BandwidthTrace.End(rawValue: traceEnd) == nil {
            throw ValidationError("--trace-end '\(traceEnd)' is not loop or hold")
        }
        if bandwidthTrace != nil && (profile != nil || latencyMilliseconds != nil || bandwidthKbps != nil) {
            throw ValidationError("--bandwidth-trace sets bandwidth and latency; give it without --profile, --latency-ms or --bandwidth-kbps")
        }
        if traceEnd != nil && bandwidthTrace == nil && profile?.lowercased().hasPrefix("trace:") != true {
            throw ValidationError("--trace-end needs --bandwidth-trace")
        }
    }

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.bootstrap()
        try await CLIOutput.run("serve") { try await execute() }
    }

    private func execute() async throws {
        _ = try config.resolve()
        try OutputPaths.prepare([(statsFile, "the bill")])
        var networkProfile = try profile.map { try NetworkProfile.parse($0) } ?? .unlimited
        let end = traceEnd.flatMap(BandwidthTrace.End.init(rawValue:))
        if let bandwidthTrace {
            networkProfile = NetworkProfile(trace: try BandwidthTrace.load(path: bandwidthTrace, end: end))
        } else if let end, let trace = networkProfile.trace {
            networkProfile = NetworkProfile(trace: try BandwidthTrace(name: trace.name, steps: trace.steps, end: end))
        }
        if latencyMilliseconds != nil || bandwidthKbps != nil {
            networkProfile = NetworkProfile(
                name: "custom",
                latencyMilliseconds: latencyMilliseconds ?? networkProfile.latencyMilliseconds,
                bandwidthKbps: bandwidthKbps ?? networkProfile.bandwidthKbps,
                isOffline: networkProfile.isOffline)
        }
        let configuration = CDNServerConfiguration(rootPath: directory, host: host, port: port,
                                                   profile: networkProfile, faults: {
                                                       var injection = faults.injection
                                                       if let legacySeed { injection.seed = legacySeed }
                                                       return injection
                                                   }())
        let signals = SignalWatcher([SIGINT, SIGTERM])
        let bill = try await withServer(configuration) { server in
            print(server.baseURL.absoluteString)
            fflush(nil)
            Self.printToStandardError("serving \(directory) at \(server.baseURL.absoluteString), profile \(networkProfile); stop with Ctrl-C")
            await signals.wait()
            return server.bill()
        }
        if json {
            print(try CLIOutput.json(bill))
        } else {
            print(bill.table())
        }
        if let statsFile {
            try await bill.writeJSON(toFile: statsFile)
        }
    }

    private static func printToStandardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
