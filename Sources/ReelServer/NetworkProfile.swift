import ReelCore

/// How the network between the phone and the CDN behaves: a latency before every response head,
/// a bandwidth limit on each client's link (every connection of one client address shares it, as
/// on a phone's last mile), both fixed or following a `BandwidthTrace`; or no network at all.
package struct NetworkProfile: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The profile's name as the CLI spells it (`wifi`, `4g`, `3g`, `offline`, `unlimited`,
    /// `custom`, or `trace:<file name>`).
    package var name: String
    /// Delay before each response head, in milliseconds (a trace's own latency wins).
    package var latencyMilliseconds: Int
    /// Bandwidth of each client's link in kilobits (1,000 bits) per second; nil means unlimited.
    package var bandwidthKbps: Int?
    /// When true, every connection is closed at once without an answer.
    package var isOffline: Bool
    /// Bandwidth and latency over time, from when the profile took effect; nil for fixed ones.
    package var trace: BandwidthTrace?

    package init(name: String = "custom", latencyMilliseconds: Int = 0, bandwidthKbps: Int? = nil, isOffline: Bool = false) {
        self.name = name
        self.latencyMilliseconds = max(0, latencyMilliseconds)
        self.bandwidthKbps = bandwidthKbps.map { max(1, $0) }
        self.isOffline = isOffline
    }

    /// A profile that plays `trace`: named `trace:<trace name>`.
    package init(trace: BandwidthTrace) {
        self.init(name: "trace:\(trace.name)")
        self.trace = trace
    }

    /// No latency, no bandwidth limit: loopback speed. The server's default.
    package static let unlimited = NetworkProfile(name: "unlimited")
    /// Home Wi-Fi: 10 ms, 40 Mbit/s.
    package static let wifi = NetworkProfile(name: "wifi", latencyMilliseconds: 10, bandwidthKbps: 40_000)
    /// A good 4G link: 50 ms, 8 Mbit/s.
    package static let fourG = NetworkProfile(name: "4g", latencyMilliseconds: 50, bandwidthKbps: 8_000)
    /// A poor 3G link: 200 ms, 1.5 Mbit/s.
    package static let threeG = NetworkProfile(name: "3g", latencyMilliseconds: 200, bandwidthKbps: 1_500)
    /// No network: connections are closed as soon as they are accepted.
    package static let offline = NetworkProfile(name: "offline", isOffline: true)

    /// The built-in profiles, by name.
    package static let builtIn: [NetworkProfile] = [.unlimited, .wifi, .fourG, .threeG, .offline]

    /// The built-in profile with this name (case-insensitive), or nil.
    package static func named(_ name: String) -> NetworkProfile? {
        builtIn.first { $0.name == name.lowercased() }
    }

    /// The profile a command line names: a built-in name, or `trace:FILE` (a `BandwidthTrace`
    /// file, read now). Unknown names, bad traces and (without `allowOffline`) `offline` are
    /// `invalidInput` errors naming them.
    package static func parse(_ text: String, allowOffline: Bool = true) throws -> NetworkProfile {
        if text.lowercased().hasPrefix("trace:") {
            var path = String(text.dropFirst("trace:".count))
            // `trace:FILE@80ms`: the latency of a trace whose lines give none (a `seconds Mbps` one).
            var latency = 0
            if let at = path.lastIndex(of: "@"), path[at...].hasSuffix("ms"),
               let value = Int(path[path.index(after: at)..<path.index(path.endIndex, offsetBy: -2)]) {
                guard (0...60_000).contains(value) else {
                    throw ReelError(.invalidInput, "network profile '\(text)': a latency must be 0 to 60000 ms")
                }
                latency = value
                path = String(path[..<at])
            }
            guard !path.isEmpty else {
                throw ReelError(.invalidInput, "network profile '\(text)' names no trace file (use trace:FILE or trace:FILE@80ms)")
            }
            return NetworkProfile(trace: try BandwidthTrace.load(path: path, latency: latency))
        }
        guard let profile = named(text), allowOffline || !profile.isOffline else {
            let names = builtIn.filter { allowOffline || !$0.isOffline }.map(\.name).joined(separator: ", ")
            throw ReelError(.invalidInput, "unknown network profile '\(text)' (use \(names) or trace:FILE)")
        }
        return profile
    }

    /// Bytes per second of the link `elapsed` seconds after the profile took effect (nil:
    /// unlimited), and until when that rate holds (seconds since then; nil: for good).
    func rate(at elapsed: Double) -> (bytesPerSecond: Double?, until: Double?) {
        if let trace {
            let (step, until) = trace.step(at: elapsed)
            return (Double(step.kbps) * 1000 / 8, until)
        }
        return (bandwidthKbps.map { Double($0) * 1000 / 8 }, nil)
    }

    /// The latency before a response head that starts `elapsed` seconds after the profile took
    /// effect.
    func latency(at elapsed: Double) -> Int {
        trace.map { $0.step(at: elapsed).step.latencyMilliseconds } ?? latencyMilliseconds
    }

    package var description: String {
        if isOffline { return "\(name) (offline)" }
        if let trace {
            let rates = trace.steps.map(\.kbps)
            return "\(name) (\(rates.min() ?? 0)-\(rates.max() ?? 0) kbps over \(trace.length) s, \(trace.end == .loop ? "looped" : "held at the end"))"
        }
        let bandwidth = bandwidthKbps.map { "\($0) kbps" } ?? "unlimited bandwidth"
        return "\(name) (\(latencyMilliseconds) ms, \(bandwidth))"
    }
}
