import Foundation
import ReelCore
import ReelServer
import ReelTestSupport
import Testing

@Suite("Bandwidth traces: parsing, looping, holding, bad input")
struct BandwidthTraceTests {
    @Test func stepsHoldUntilTheNextLineAndLatencyCarriesOver() throws {
        let trace = try BandwidthTrace.parse("# a drop\n0 8000 50\n\n10 1500 200\n20 8000\n30 8000\n", name: "drop")
        #expect(trace.steps.count == 4)
        #expect(trace.end == .loop)
        #expect(trace.length == 30)
        #expect(trace.step(at: 9.99).step.kbps == 8000)
        #expect(trace.step(at: 10).step.kbps == 1500)
        #expect(trace.step(at: 10).until == 20)
        #expect(trace.step(at: 25).step.latencyMilliseconds == 200)
    }

    @Test func aLoopingTraceStartsOverAtItsLastLine() throws {
        let trace = try BandwidthTrace.parse("0 100\n1 200\n3 999\n", name: "loop")
        // The last line marks the end of a lap: 3 s later it starts over.
        #expect(trace.step(at: 3.5).step.kbps == 100)
        #expect(trace.step(at: 3.5).until == 4)
        #expect(trace.step(at: 4.5).step.kbps == 200)
        #expect(trace.step(at: 4.5).until == 6)
        #expect(trace.step(at: 301).step.kbps == 200)
    }

    @Test func aHeldTraceStaysAtItsLastLine() throws {
        let trace = try BandwidthTrace.parse("# end: hold\n0 100\n1 200\n3 999\n", name: "hold")
        #expect(trace.end == .hold)
        #expect(trace.step(at: 2).until == 3)
        #expect(trace.step(at: 3).step.kbps == 999)
        #expect(trace.step(at: 1_000).step.kbps == 999)
        #expect(trace.step(at: 1_000).until == nil)
        // The caller's choice wins over the file's.
        #expect(try BandwidthTrace.parse("# end: hold\n0 100\n1 200\n", name: "x", end: .loop).end == .loop)
    }

    @Test("bad traces are refused naming the line and the cause", arguments: [
        ("", "has no lines"),
        ("1 100\n", "line 1: the first line must be at 0 seconds"),
        ("0 100\n0 200\n", "line 2: time 0.0 s does not come after 0.0 s"),
        ("0 fast\n", "line 1: 'fast' is not a whole number of kbps"),
        ("0 100 soon\n", "line 1: 'soon' is not a whole number of milliseconds"),
        ("0\n", "line 1: expected 'seconds kbps [latencyMs]'"),
        ("0 100 1 2\n", "line 1: expected 'seconds kbps [latencyMs]'"),
        ("x 100\n", "line 1: 'x' is not a time in seconds"),
        ("0 -5\n", "line 1: -5 kbps is outside"),
        ("0 100 -1\n", "line 1: latency -1 ms is outside"),
        ("0 0\n5 0\n", "every step has 0 kbps"),
        ("# end: hold\n0 100\n5 0\n", "holds 0 kbps at its end"),
        ("# end: forever\n0 100\n", "line 1: 'forever' is not an end"),
        // Past what the simulator's nanosecond clock counts (once a SIGILL in `reel serve`).
        ("0 100\n20000000000 100\n", "line 2: time 20000000000.0 s is past the limit of 31536000 s (365 days)"),
        ("0 100\n31536000.5 100\n", "line 2: time 31536000.5 s is past the limit"),
    ])
    func badInput(text: String, message: String) {
        #expect {
            _ = try BandwidthTrace.parse(text, name: "bad.txt")
        } throws: { error in
            guard let error = error as? ReelError else { return false }
            return error.code == .invalidInput && error.message.hasPrefix("bandwidth trace 'bad.txt'")
                && error.message.contains(message)
        }
    }

    @Test func aTraceOfAYearIsAcceptedAndPacedWithoutOverflow() throws {
        let trace = try BandwidthTrace.parse("# end: hold\n0 8\n31536000 80\n", name: "year")
        #expect(trace.step(at: 31_535_999).step.kbps == 8)
        #expect(trace.step(at: 31_536_000).step.kbps == 80)
    }

    @Test func aMissingFileIsNamed() {
        #expect {
            _ = try BandwidthTrace.load(path: "/nonexistent/drop.txt")
        } throws: { error in
            (error as? ReelError)?.message == "bandwidth trace '/nonexistent/drop.txt' not found"
        }
    }

    @Test func profilesNameBuiltInsAndTraceFiles() throws {
        #expect(try NetworkProfile.parse("4G") == .fourG)
        let path = PackagePaths.samples.appendingPathComponent("bandwidth/4g-steady.txt").path
        let profile = try NetworkProfile.parse("trace:\(path)")
        #expect(profile.name == "trace:4g-steady.txt")
        #expect(profile.trace?.steps.first?.kbps == 8000)
        #expect(throws: ReelError.self) { try NetworkProfile.parse("5g") }
        #expect(throws: ReelError.self) { try NetworkProfile.parse("trace:") }
    }

    @Test("the bundled traces load", arguments: ["4g-steady.txt", "4g-drop-3g.txt", "cellular.txt", "tunnel.txt"])
    func bundled(name: String) throws {
        let trace = try BandwidthTrace.load(path: PackagePaths.samples.appendingPathComponent("bandwidth/\(name)").path)
        #expect(trace.length >= 30)
    }

    /// The format of Pensieve's cooked traces, Norway HSDPA, FCC and the MMGC 2022 challenge:
    /// `seconds Mbps`, fractional; the latency comes from the profile (`trace:FILE@80ms`).
    @Test func secondsAndMegabitsAreReadWithTheProfilesLatency() throws {
        let folder = try makeScratchFolder("reel-mbps-trace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bus_1.log")
        try Data("0.0 1.5\n0.5 0.75\n1.0 2\n".utf8).write(to: file)
        let profile = try NetworkProfile.parse("trace:\(file.path)@80ms")
        let trace = try #require(profile.trace)
        #expect(trace.steps.map(\.kbps) == [1500, 750, 2000])
        #expect(trace.steps.allSatisfy { $0.latencyMilliseconds == 80 })
        // Without the suffix, no latency; a whole-number file stays kbps.
        #expect(try NetworkProfile.parse("trace:\(file.path)").trace?.steps.first?.latencyMilliseconds == 0)
        #expect(try BandwidthTrace.parse("0 8000 50\n10 1000\n", name: "kbps").steps.map(\.kbps) == [8000, 1000])
        #expect(try BandwidthTrace.parse("# unit: mbps\n0 2\n1 3\n", name: "said").steps.map(\.kbps) == [2000, 3000])
        #expect(throws: ReelError.self) { try BandwidthTrace.parse("0.0 1.5 80\n", name: "three fields") }
        #expect(throws: ReelError.self) { try NetworkProfile.parse("trace:\(file.path)@99999ms") }
    }
}
