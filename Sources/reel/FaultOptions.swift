import ArgumentParser
import ReelServer

/// `--fail-rate`, `--stall-rate`, `--reset-rate` and `--fault-seed`: faults the CDN simulator
/// injects at seeded rates, for `reel serve` and for the simulator a feed run stands up.
struct FaultOptions: ParsableArguments {
    @Option(help: "Fraction of requests (0...1) answered 503 Service Unavailable.")
    var failRate = 0.0

    @Option(help: "Fraction of responses (0...1) that stall partway through the body and keep the connection open.")
    var stallRate = 0.0

    @Option(help: "Fraction of responses (0...1) whose connection is reset partway through the body.")
    var resetRate = 0.0

    @Option(name: .customLong("fault-seed"), help: "Seed for the fault decisions.")
    var seed: UInt64 = 0

    func validate() throws {
        for (name, rate) in [("--fail-rate", failRate), ("--stall-rate", stallRate), ("--reset-rate", resetRate)] {
            guard rate.isFinite, (0...1).contains(rate) else {
                throw ValidationError("\(name) \(rate) is outside 0...1")
            }
        }
    }

    var injection: FaultInjection {
        FaultInjection(failRate: failRate, resetRate: resetRate, stallRate: stallRate, seed: seed)
    }
}
