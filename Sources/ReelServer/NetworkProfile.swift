/// How the network between the phone and the CDN behaves: a latency before every response head,
/// a bandwidth limit per connection, or no network at all.
public struct NetworkProfile: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The profile's name as the CLI spells it (`wifi`, `4g`, `3g`, `offline`, `unlimited`, `custom`).
    public var name: String
    /// Delay before each response head, in milliseconds.
    public var latencyMilliseconds: Int
    /// Bandwidth of each connection in kilobits (1,000 bits) per second; nil means unlimited.
    public var bandwidthKbps: Int?
    /// When true, every connection is closed at once without an answer.
    public var isOffline: Bool

    public init(name: String = "custom", latencyMilliseconds: Int = 0, bandwidthKbps: Int? = nil, isOffline: Bool = false) {
        self.name = name
        self.latencyMilliseconds = max(0, latencyMilliseconds)
        self.bandwidthKbps = bandwidthKbps.map { max(1, $0) }
        self.isOffline = isOffline
    }

    /// No latency, no bandwidth limit: loopback speed. The server's default.
    public static let unlimited = NetworkProfile(name: "unlimited")
    /// Home Wi-Fi: 10 ms, 40 Mbit/s.
    public static let wifi = NetworkProfile(name: "wifi", latencyMilliseconds: 10, bandwidthKbps: 40_000)
    /// A good 4G link: 50 ms, 8 Mbit/s.
    public static let fourG = NetworkProfile(name: "4g", latencyMilliseconds: 50, bandwidthKbps: 8_000)
    /// A poor 3G link: 200 ms, 1.5 Mbit/s.
    public static let threeG = NetworkProfile(name: "3g", latencyMilliseconds: 200, bandwidthKbps: 1_500)
    /// No network: connections are closed as soon as they are accepted.
    public static let offline = NetworkProfile(name: "offline", isOffline: true)

    /// The built-in profiles, by name.
    public static let builtIn: [NetworkProfile] = [.unlimited, .wifi, .fourG, .threeG, .offline]

    /// The built-in profile with this name (case-insensitive), or nil.
    public static func named(_ name: String) -> NetworkProfile? {
        builtIn.first { $0.name == name.lowercased() }
    }

    /// Bytes per second of the bandwidth limit, or nil when unlimited.
    var bytesPerSecond: Double? {
        bandwidthKbps.map { Double($0) * 1000 / 8 }
    }

    public var description: String {
        if isOffline { return "\(name) (offline)" }
        let bandwidth = bandwidthKbps.map { "\($0) kbps" } ?? "unlimited bandwidth"
        return "\(name) (\(latencyMilliseconds) ms, \(bandwidth))"
    }
}
