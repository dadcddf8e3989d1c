@testable import ReelServer
import Testing

@Suite("Seeded fault decisions")
struct FaultInjectionTests {
    private let rates = FaultInjection(failRate: 0.2, resetRate: 0.2, stallRate: 0.2, seed: 42)

    private func decisions(_ injection: FaultInjection, path: String, count: Int = 200) -> [Fault?] {
        (0..<count).map { injection.fault(forPath: path, requestIndex: $0, bodyLength: 10_000) }
    }

    @Test func sameSeedSameDecisions() {
        let again = FaultInjection(failRate: 0.2, resetRate: 0.2, stallRate: 0.2, seed: 42)
        #expect(decisions(rates, path: "/hls/seg1.ts") == decisions(again, path: "/hls/seg1.ts"))
    }

    @Test func otherSeedOrPathOtherDecisions() {
        var other = rates
        other.seed = 43
        #expect(decisions(rates, path: "/hls/seg1.ts") != decisions(other, path: "/hls/seg1.ts"))
        #expect(decisions(rates, path: "/hls/seg1.ts") != decisions(rates, path: "/hls/seg2.ts"))
    }

    @Test func ratesAreRoughlyKept() {
        let all = (0..<50).flatMap { decisions(rates, path: "/p\($0)", count: 100) }
        let fails = all.filter { if case .status(503)? = $0 { true } else { false } }.count
        let resets = all.filter { if case .reset? = $0 { true } else { false } }.count
        let stalls = all.filter { if case .stall? = $0 { true } else { false } }.count
        // 5,000 seeded draws: 20 % fail, 80 % x 20 % = 16 % reset, 64 % x 20 % = 12.8 % stall.
        #expect((900...1100).contains(fails))
        #expect((700...900).contains(resets))
        #expect((540...740).contains(stalls))
    }

    @Test func cutsFallStrictlyInsideTheBody() {
        for fault in decisions(rates, path: "/x", count: 500) {
            switch fault {
            case .reset(let after)?, .stall(let after)?:
                #expect(after >= 1_000 && after < 9_000)
            default:
                break
            }
        }
    }

    @Test func noBodyNoCut() {
        let always = FaultInjection(resetRate: 1, stallRate: 1, seed: 1)
        #expect(always.fault(forPath: "/x", requestIndex: 0, bodyLength: 0) == nil)
        #expect(FaultInjection.none.fault(forPath: "/x", requestIndex: 0, bodyLength: 10) == nil)
    }

    @Test("rates outside 0...1 are refused", arguments: [-0.1, 1.5, Double.nan])
    func validation(rate: Double) {
        #expect(throws: CDNServerError.self) { try FaultInjection(failRate: rate).validate() }
        #expect(throws: CDNServerError.self) { try FaultInjection(stallRate: rate).validate() }
    }
}
