import Foundation
import FuzzSupport
import LottieGenerator
import ReelCore
import ReelSplash
import ReelStore

/// The launch state's rows, as a damaged or hostile database could hold them: the bytes choose
/// rows of every table, each value of any storage class (text in `launches`, a blob id,
/// `checksum = 1e300`, times past any calendar, NUL and CR in text). Decoding must not trap; what
/// it keeps must encode and decode again to the same state with nothing damaged; and the launch
/// policy must run on it (times and counts in range for its arithmetic).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzBytes(Array(UnsafeBufferPointer(start: data, count: size)))
    var rows = LaunchStateRows()
    var rowid: Int64 = 0
    func table(_ columns: Int) -> [LaunchStateRows.Row] {
        (0..<input.int(0...6)).map { _ in
            rowid += 1
            let width = input.oneIn(16) ? input.int(0...(columns + 2)) : columns
            return LaunchStateRows.Row(rowid: rowid, values: (0..<width).map { _ in value(&input) })
        }
    }
    rows.lifecycle = table(5)
    rows.display = table(2)
    rows.crash = table(2)
    rows.configuration = table(3)
    rows.asset = table(7)
    let total = rows.lifecycle.count + rows.display.count + rows.crash.count + rows.configuration.count + rows.asset.count

    let decoded = rows.decode()
    guard decoded.damaged.count <= total, Set(decoded.damaged.map(\.rowid)).count == decoded.damaged.count else {
        fatalError("damaged rows counted wrong: \(decoded.damaged)")
    }
    let again = LaunchStateRows(decoded).decode()
    guard again.damaged.isEmpty else { fatalError("what decoding kept does not decode again: \(again.damaged)") }
    guard same(again, decoded) else { fatalError("what decoding kept reads back differently:\n\(decoded)\n\(again)") }
    exercise(decoded, at: input.pick([1_795_000_000, 0, -62_135_596_800, 253_402_300_799, 1_000_000_000]))
    return 0
}

/// A value of any storage class, the ones that break decoders most often.
func value(_ input: inout FuzzBytes) -> SQLiteValue {
    switch input.int(0...4) {
    case 0: return .null
    case 1: return .integer(input.pick([0, 1, -1, 2, Int64.max, Int64.min, 1_795_000_000, Int64(Int32.max) + 1, 1 << 40, 255]))
    case 2: return .real(input.pick([0.5, -0.0, 1e300, -1e300, .nan, .infinity, -.infinity, 1_795_000_000.25, 253_402_300_800, 3.0]))
    case 3:
        return .text(input.pick(["valid", "invalid", "failed", "checking", "", "0123456789abcdef.json", "../../etc/passwd",
                                 "https://cdn.example/a.json", "id\u{0}with NUL", "line\r\nbreak", "many", "1e300", "12"]))
    default: return .blob(input.pick([[], [0], Array("valid".utf8), Array(#"{"holidaySplash": []}"#.utf8), [0xFF, 0xFE]]))
    }
}

/// The same state, times within a microsecond (a time goes through `Date` and back).
func same(_ a: StoredLaunchState, _ b: StoredLaunchState) -> Bool {
    func close(_ x: Date?, _ y: Date?) -> Bool {
        switch (x, y) {
        case (nil, nil): return true
        case (let x?, let y?): return abs(x.timeIntervalSince1970 - y.timeIntervalSince1970) <= 1e-6 * max(1, abs(x.timeIntervalSince1970))
        default: return false
        }
    }
    let (la, lb) = (a.state.lifecycle, b.state.lifecycle)
    guard la.launches == lb.launches, la.crashGuardPending == lb.crashGuardPending, close(la.lastEventAt, lb.lastEventAt),
          close(la.sessionStart, lb.sessionStart), close(la.endedAt, lb.endedAt) else { return false }
    guard a.state.lastDisplayed.keys.sorted() == b.state.lastDisplayed.keys.sorted(),
          a.state.lastDisplayed.allSatisfy({ close($0.value, b.state.lastDisplayed[$0.key]) }) else { return false }
    guard a.state.crashes.count == b.state.crashes.count,
          zip(a.state.crashes, b.state.crashes).allSatisfy({ close($0.time, $1.time) && $0.sessionSeconds == $1.sessionSeconds }) else { return false }
    guard a.configuration?.url == b.configuration?.url, a.configuration?.body == b.configuration?.body,
          close(a.configuration?.fetchedAt, b.configuration?.fetchedAt) else { return false }
    guard a.assets.count == b.assets.count else { return false }
    return zip(a.assets, b.assets).allSatisfy { x, y in
        guard x.url == y.url, x.file == y.file, x.bytes == y.bytes, x.checksum == y.checksum else { return false }
        switch (x.status, y.status) {
        case (.valid, .valid): return true
        case (.invalid(let p), .invalid(let q)): return p == q
        case (.failed(let p, let s), .failed(let q, let t)): return p == q && close(s, t)
        default: return false
        }
    }
}

/// The policy on the decoded state: a launch, a crash, a foreground a day on; its decisions'
/// detail lines do arithmetic on every time and count.
func exercise(_ stored: StoredLaunchState, at seconds: Double) {
    let url = URL(string: "https://cdn.example/splash-config.json")!
    let configuration = stored.configuration.flatMap { saved in
        URL(string: saved.url).flatMap { try? SplashConfigurationParser.parse(saved.body, url: $0, fetchedAt: saved.fetchedAt).configuration }
    }
    var policy = LaunchPolicy(parameters: LaunchParameters(configurationURL: url), state: stored.state, configuration: configuration,
                              assets: Dictionary(stored.assets.map { ($0.url, $0.status) }) { $1 },
                              assetBytes: Dictionary(stored.assets.map { ($0.url, $0.bytes) }) { $1 })
    let now = Date(timeIntervalSince1970: seconds)
    for (offset, kind) in [(0.0, LaunchEvent.Kind.launch), (5, .crash), (86_400, .foreground), (86_500, .background)] {
        let outcome = policy.handle(LaunchEvent(time: now.addingTimeInterval(offset), kind: kind))
        _ = outcome.decision.detail.count
    }
}
