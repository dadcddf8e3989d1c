import ReelNet

/// The low-speed window of tests that count requests or bytes: only a real stall (a minute
/// without bytes) trips the watchdog. On a loaded machine the default four seconds can cut a
/// healthy transfer, whose retry then shows up as an extra request.
package enum PatientNetwork {
    package static let lowSpeedTimeMs = 60_000

    /// The same for a `reel` process: `--set network.lowSpeedTimeMs=...`.
    package static let arguments = ["--set", "network.lowSpeedTimeMs=\(lowSpeedTimeMs)"]
}

extension NetworkOptions {
    /// Default options with the patient low-speed window: what an engine of tests that count
    /// requests, bytes or warnings uses.
    package static var patient: NetworkOptions {
        var options = NetworkOptions()
        options.lowSpeedTimeMs = PatientNetwork.lowSpeedTimeMs
        return options
    }
}
