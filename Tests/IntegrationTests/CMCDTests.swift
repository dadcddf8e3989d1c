import Foundation
import ReelCore
import ReelServer
import ReelTestSupport
import Testing

/// Common Media Client Data (CTA-5004) on every request Reel makes, as a CDN reads it: `reel play`
/// and `reel prefetch` against the CDN simulator, whose own parser (not Reel's encoder) reads each
/// request's CMCD; the expectations come from the specification's key table, written out here.
@Suite("CMCD")
struct CMCDTests {
    /// CTA-5004's keys (version 1): the header each travels in and its value's type.
    enum Kind { case integer, decimal, string, token([String]), boolean }
    static let keys: [String: (header: String, kind: Kind)] = [
        "br": ("CMCD-Object", .integer), "d": ("CMCD-Object", .integer),
        "ot": ("CMCD-Object", .token(["m", "a", "v", "av", "i", "c", "tt", "k", "o"])), "tb": ("CMCD-Object", .integer),
        "bl": ("CMCD-Request", .integer), "dl": ("CMCD-Request", .integer), "mtp": ("CMCD-Request", .integer),
        "nor": ("CMCD-Request", .string), "nrr": ("CMCD-Request", .string), "su": ("CMCD-Request", .boolean),
        "cid": ("CMCD-Session", .string), "pr": ("CMCD-Session", .decimal), "sf": ("CMCD-Session", .token(["d", "h", "s", "o"])),
        "sid": ("CMCD-Session", .string), "st": ("CMCD-Session", .token(["v", "l"])), "v": ("CMCD-Session", .integer),
        "bs": ("CMCD-Status", .boolean), "rtp": ("CMCD-Status", .integer),
    ]

    /// Each request's key is one of the table's (or a custom key with a hyphenated prefix), of its
    /// type, in its header; keys come in alphabetical order; strings are at most 64 characters;
    /// `bl` and `mtp` are multiples of 100, as the specification rounds them.
    static func conforms(_ data: CMCDData, path: String) {
        #expect(data.malformed.isEmpty, "\(path): items that are not CMCD: \(data.malformed)")
        for keys in data.order {
            #expect(keys == keys.sorted(), "\(path): keys not in alphabetical order: \(keys)")
        }
        for (key, value) in data.values {
            guard let known = keys[key] else {
                #expect(key.contains("-") && !key.hasPrefix("-"), "\(path): '\(key)' is neither a CMCD key nor a custom one")
                continue
            }
            if data.transport == .header {
                #expect(data.headerOf[key] == known.header, "\(path): '\(key)' came in \(data.headerOf[key] ?? "?"), not \(known.header)")
            }
            switch known.kind {
            case .integer:
                let number = value.number ?? -1
                #expect(number >= 0 && number == number.rounded(), "\(path): \(key)=\(value) is not an integer")
            case .decimal: #expect(value.number != nil, "\(path): \(key)=\(value)")
            case .string:
                guard case .string(let text) = value else { Issue.record("\(path): \(key)=\(value) is not a quoted string"); continue }
                #expect(text.count <= 64, "\(path): \(key) is \(text.count) characters")
            case .token(let allowed):
                guard case .token(let token) = value else { Issue.record("\(path): \(key)=\(value) is not a token"); continue }
                #expect(allowed.contains(token), "\(path): \(key)=\(token)")
            case .boolean:
                #expect(value == .bool(true), "\(path): \(key)=\(value): a true boolean is its key alone, a false one is left out")
            }
        }
        for key in ["bl", "mtp"] {
            if let number = data[key]?.number { #expect(number.truncatingRemainder(dividingBy: 100) == 0, "\(path): \(key)=\(number)") }
        }
    }

    /// Runs `arguments` against a simulator serving the samples; every request's log entry.
    static func requests(_ arguments: (URL) -> [String]) async throws -> (entries: [RequestLogEntry], bill: CDNBill, stdout: String) {
        let log = Locked<[RequestLogEntry]>([])
        let configuration = CDNServerConfiguration(root: PackagePaths.samples, profile: .unlimited,
                                                   requestLog: { entry in log.withLock { $0.append(entry) } })
        return try await withServer(configuration) { server in
            let result = try await ReelProcess.run(arguments(server.baseURL))
            #expect(result.status == 0, "\(result.stderr)")
            let bill = await server.waitForBill(limit: .seconds(10)) { $0.openConnections == 0 } ?? server.bill()
            return (log.withLock { $0 }, bill, result.stdout)
        }
    }

    @Test(arguments: ["header", "query"])
    func aPlaySaysWhatEachRequestIsFor(mode: String) async throws {
        let (entries, bill, _) = try await Self.requests { base in
            ["play", base.appendingPathComponent("streams/s15/master.m3u8").absoluteString, "--fast", "--no-cache",
             "--set", "network.cmcd.enabled=true", "--set", "network.cmcd.mode=\(mode)"]
        }
        #expect(entries.count >= 6, "\(entries.map(\.path))")
        let sessions = Set(entries.compactMap { $0.cmcd?["sid"]?.text })
        #expect(sessions.count == 1, "one session id per run: \(sessions)")
        for entry in entries {
            let data = try #require(entry.cmcd, "\(entry.path) came without CMCD")
            #expect(data.transport == (mode == "header" ? .header : .query))
            Self.conforms(data, path: entry.path)
            #expect(data["cid"]?.text == "/streams/s15/master.m3u8", "\(entry.path): cid \(String(describing: data["cid"]))")
            #expect(data["sf"] == .token("h"))
        }
        // br: the variant's BANDWIDTH in the master (the peak, as CTA-5004 asks), in kbps.
        let master = try String(contentsOf: PackagePaths.samples.appendingPathComponent("streams/s15/master.m3u8"), encoding: .utf8)
        let ladder = master.matches(of: /BANDWIDTH=([0-9]+)/).compactMap { Int($0.output.1).map { $0 / 1000 } }
        #expect(ladder.count == 3)
        let manifests = entries.filter { $0.path.hasSuffix(".m3u8") }
        let segments = entries.filter { $0.path.hasSuffix(".ts") }
        #expect(manifests.count >= 2 && segments.count >= 3)
        #expect(manifests.allSatisfy { $0.cmcd?["ot"] == .token("m") && $0.cmcd?["su"] == .bool(true) })
        for segment in segments {
            let data = try #require(segment.cmcd)
            #expect(data["ot"] == .token("av") && data["st"] == .token("v"), "\(segment.path)")
            #expect(data["br"]?.number.map { ladder.contains(Int($0)) } == true, "\(segment.path): br \(String(describing: data["br"])), ladder \(ladder)")
            #expect(data["tb"]?.number == Double(ladder.max() ?? 0) && data["d"]?.number.map { $0 > 0 && $0 <= 2100 } == true, "\(segment.path)")
        }
        // The first segment is needed to start; after the first frame the play says how much it holds.
        let first = try #require(segments.first?.cmcd)
        #expect(first["su"] == .bool(true) && first["nor"] != nil, "\(first)")
        let last = try #require(segments.last?.cmcd)
        #expect(last["su"] == nil && last["bl"] != nil && last["nor"] == nil, "\(last)")
        // The CDN bills the bytes by what the client said they were for.
        #expect((bill.purposes["startup"]?.bodyBytes ?? 0) > 0 && (bill.purposes["playback"]?.bodyBytes ?? 0) > 0, "\(bill.purposes)")
        #expect(bill.purposes["unlabeled"] == nil && bill.objectTypes["av"] != nil && bill.objectTypes["m"] != nil, "\(bill.objectTypes)")
    }

    @Test func aPrefetchIsMarkedAsOne() async throws {
        let cache = try makeScratchFolder("reel-cmcd-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let (entries, bill, _) = try await Self.requests { base in
            ["prefetch", base.appendingPathComponent("streams/s01/index.m3u8").absoluteString, "--segments", "2", "--category", "nearby",
             "--cache", cache.path, "--set", "network.cmcd.enabled=true"]
        }
        #expect(entries.count == 3, "\(entries.map(\.path))")
        for entry in entries {
            let data = try #require(entry.cmcd, "\(entry.path) came without CMCD")
            Self.conforms(data, path: entry.path)
            #expect(data["com.reel-prefetch"] == .token("nearby") && data["su"] == nil, "\(entry.path): \(data.values)")
        }
        #expect(bill.purposes.keys.sorted() == ["prefetch"] && (bill.purposes["prefetch"]?.bodyBytes ?? 0) == bill.bodyBytes, "\(bill.purposes)")
    }

    @Test func withoutItTheRequestsCarryNone() async throws {
        let (entries, bill, _) = try await Self.requests { base in
            ["play", base.appendingPathComponent("streams/s01/index.m3u8").absoluteString, "--fast", "--frames", "5", "--no-cache"]
        }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.cmcd == nil })
        #expect(bill.purposes.keys.sorted() == ["unlabeled"])
    }

    /// The simulator's parser on text written by hand from the specification's rules: both
    /// transports, quoted strings with commas and escapes, booleans, tokens, custom keys, and
    /// items that are not CMCD.
    @Test func theCDNReadsCMCDAsTheSpecificationWritesIt() throws {
        let query = "/seg.ts?x=1&CMCD=" + "bl%3D21300%2Cbr%3D3200%2Cbs%2Ccid%3D%22a%2Cb%5C%22c%22%2Ccom.example-flag%3Dyes%2Cd%3D4004%2Cmtp%3D25400%2Cnor%3D%22..%252F300kbps%252Fseg2.ts%22%2Cot%3Dv%2Csf%3Dd%2Csid%3D%226e2fb550%22%2Cst%3Dv%2Csu"
        let data = try #require(CMCDData(uri: query, headers: []))
        #expect(data.transport == .query && data.malformed.isEmpty)
        #expect(data["bl"] == .number(21300) && data["bs"] == .bool(true) && data["su"] == .bool(true))
        #expect(data["cid"] == .string("a,b\"c") && data["nor"] == .string("..%2F300kbps%2Fseg2.ts"))
        #expect(data["ot"] == .token("v") && data["com.example-flag"] == .token("yes"))
        #expect(data.order == [["bl", "br", "bs", "cid", "com.example-flag", "d", "mtp", "nor", "ot", "sf", "sid", "st", "su"]])
        #expect(data.purpose == .startup)

        let headers = try #require(CMCDData(uri: "/seg.ts", headers: [
            ("CMCD-Object", "br=3200,d=4004,ot=av"), ("cmcd-request", "bl=100,com.reel-prefetch=page"),
            ("CMCD-Session", "sid=\"x\""), ("CMCD-Status", "bs"), ("Accept", "*/*"),
        ]))
        #expect(headers.transport == .header && headers.headerOf["bl"] == "CMCD-Request" && headers.headerOf["bs"] == "CMCD-Status")
        #expect(headers.purpose == .prefetch)
        let bad = try #require(CMCDData(uri: "/a?CMCD=Bad%3D1%2Cok%2Cs%3D%22open", headers: []))
        #expect(bad.malformed == ["Bad=1", "s=\"open"] && bad["ok"] == .bool(true))
        #expect(CMCDData(uri: "/a?x=1", headers: [("Range", "bytes=0-")]) == nil)
    }
}
