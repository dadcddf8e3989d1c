import Foundation
import ReelCore
import ReelManifest
import ReelNet
import ReelServer
import ReelTestSupport
import Testing

/// The libcurl transfer engine against the CDN simulator on loopback.
@Suite("TransferEngine over real HTTP")
struct TransferEngineTests {
    /// Serves a scratch folder holding `blob.bin` (`size` random bytes) for `body` and removes the
    /// folder afterwards, on every path. The bytes are made and written on a thread of their own.
    static func withBlob<T>(size: Int = 300_000, profile: NetworkProfile = .unlimited, requests: RequestRecorder? = nil,
                            _ body: (CDNServer, [UInt8]) async throws -> T) async throws -> T {
        let (root, bytes) = try await BlockingPool.shared.run { () -> (URL, [UInt8]) in
            let root = try makeScratchFolder("reel-net")
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: root.appendingPathComponent("blob.bin"))
            return (root, bytes)
        }
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration = CDNServerConfiguration(root: root, profile: profile)
        if let requests { configuration.requestLog = { requests.record($0) } }
        return try await withServer(configuration) { server in try await body(server, bytes) }
    }

    /// Engine options for these tests: short retry backoff, and a low-speed watchdog that only a
    /// real stall trips (a minute without bytes), so a loaded machine cannot add a retry to a test
    /// that counts attempts; the tests about stalls set their own window.
    static func options(_ change: (inout NetworkOptions) -> Void = { _ in }) -> NetworkOptions {
        var options = NetworkOptions.patient
        options.retryBackoffMs = 10
        change(&options)
        return options
    }

    /// Reads a spec to the end on a dedicated thread; `received` follows the bytes read so far.
    static func fetch(_ engine: TransferEngine, _ spec: DataSpec, cancellation: Cancellation = Cancellation(),
                      received: ReadProgress? = nil) async throws -> ([UInt8], TransferMetrics) {
        try await BlockingPool.shared.run {
            let source = NetworkDataSource(engine: engine, cancellation: cancellation)
            defer { source.close() }
            _ = try source.open(spec)
            var result: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 50_000)
            while true {
                let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                if count == 0 { break }
                result += buffer[..<count]
                received?.bytes = result.count
            }
            return (result, source.metrics)
        }
    }

    func withEngine<T>(_ options: NetworkOptions = options(), _ body: (TransferEngine) async throws -> T) async throws -> T {
        let engine = TransferEngine(options: options)
        defer { BlockingPool.shared.start { engine.shutdown() } }
        return try await body(engine)
    }

    @Test func fetchesAWholeResourceWithTimings() async throws {
        try await Self.withBlob { server, bytes in
            try await withEngine { engine in
                let (got, metrics) = try await Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                #expect(got == bytes)
                #expect(metrics.httpStatus == 200)
                #expect(metrics.bytes == Int64(bytes.count))
                #expect(metrics.attempts == 1)
                #expect(metrics.firstByteMs > 0 && metrics.totalMs >= metrics.firstByteMs)
                #expect(server.bill().bodyBytes == bytes.count)
            }
        }
    }

    @Test(arguments: [(0, 1000), (12_345, 50_000), (299_000, 1000)])
    func readsByteRanges(offset: Int, length: Int) async throws {
        try await Self.withBlob { server, bytes in
            try await withEngine { engine in
                let spec = DataSpec(url: server.url(for: "blob.bin"), offset: Int64(offset), length: Int64(length), kind: .segment)
                let (got, metrics) = try await Self.fetch(engine, spec)
                #expect(got == Array(bytes[offset..<(offset + length)]))
                #expect(metrics.httpStatus == 206)
                #expect(server.bill().bodyBytes == length)
            }
        }
    }

    @Test func reusesOneConnectionAcrossRequests() async throws {
        try await Self.withBlob(size: 10_000) { server, _ in
            try await withEngine { engine in
                for _ in 0..<5 {
                    _ = try await Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                }
                let (_, last) = try await Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                #expect(last.reusedConnection)
                #expect(server.bill().requests == 6)
                #expect(server.bill().connections == 1)
            }
        }
    }

    /// Shutdown closes the pooled keep-alive connections, while the engine is still referenced:
    /// a run's bill is read after its engine stops, and must see every connection closed.
    @Test func shutdownClosesThePooledConnections() async throws {
        try await Self.withBlob(size: 10_000) { server, _ in
            let engine = TransferEngine(options: Self.options())
            _ = try await Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
            #expect(server.bill().openConnections == 1, "the connection stays pooled while the engine runs")
            try await BlockingPool.shared.run { engine.shutdown() }
            #expect(await server.waitForBill(limit: .seconds(10)) { $0.openConnections == 0 } != nil,
                    "\(server.bill().openConnections) connections still open after shutdown")
            withExtendedLifetime(engine) {}
        }
    }

    @Test func notFoundIsAClearErrorWithoutRetries() async throws {
        try await Self.withBlob(size: 10) { server, _ in
            try await withEngine { engine in
                let url = server.url(for: "missing.m3u8")
                let error = await #expect(throws: ReelError.self) {
                    try await Self.fetch(engine, DataSpec(url: url, kind: .playlist))
                }
                #expect(error?.code == .notFound)
                #expect(error?.message.contains(url.absoluteString) == true)
                #expect(server.bill().requests == 1)
            }
        }
    }

    /// libcurl refuses a string longer than 8,000,000 bytes: the transfer fails at once naming the option,
    /// without a request or a retry, instead of going out half configured.
    @Test func anOptionLibcurlRefusesFailsTheTransferNamingIt() async throws {
        try await Self.withBlob(size: 10) { server, _ in
            try await withEngine(Self.options { $0.userAgent = String(repeating: "x", count: 8_000_001) }) { engine in
                let url = server.url(for: "blob.bin")
                let error = await #expect(throws: ReelError.self) { try await Self.fetch(engine, DataSpec(url: url, kind: .segment)) }
                #expect(error?.code == .networkFailed)
                #expect(error?.message.contains("libcurl refused CURLOPT_USERAGENT for '\(url.absoluteString)'") == true,
                        "\(String(describing: error))")
                #expect(server.bill().requests == 0 && engine.statistics.attempts == 1)
            }
        }
    }

    @Test func retriesServerErrorsThenSucceeds() async throws {
        try await Self.withBlob(size: 20_000) { server, bytes in
            server.injectFault(.status(503), path: "/blob.bin", count: 2)
            try await withEngine { engine in
                let (got, metrics) = try await Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                #expect(got == bytes)
                #expect(metrics.attempts == 3)
                #expect(server.bill().requests == 3)
            }
        }
    }

    @Test func givesUpOnServerErrorsAfterTheRetryBudget() async throws {
        try await Self.withBlob(size: 20_000) { server, _ in
            server.injectFault(.status(500), path: "/blob.bin", count: 10)
            try await withEngine(Self.options { $0.maxRetries = 2 }) { engine in
                let error = await #expect(throws: ReelError.self) {
                    try await Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                }
                #expect(error?.code == .httpStatus)
                #expect(error?.message.contains("HTTP 500") == true)
                #expect(server.bill().requests == 3)
            }
        }
    }

    @Test func resumesAfterAConnectionResetMidBody() async throws {
        try await Self.withBlob { server, bytes in
            server.injectFault(.reset(afterBytes: 100_000), path: "/blob.bin", count: 1)
            try await withEngine { engine in
                let (got, metrics) = try await Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                #expect(got == bytes)
                #expect(metrics.attempts == 2)
                #expect(server.bill().requests == 2)
            }
        }
    }

    /// The stalled attempt is given up after one watchdog window and the rest is asked for with a
    /// Range request. The window is what this test waits out once; it is wide enough that the
    /// resumed attempt (a new connection, a file lookup, its first bytes) fits in it on a loaded
    /// machine: 200 ms timed out healthy attempts, and 2 s once did under the thread sanitizer
    /// with other builds running.
    @Test func aStalledResponseTimesOutAndResumes() async throws {
        let requests = RequestRecorder()
        try await Self.withBlob(requests: requests) { server, bytes in
            server.injectFault(.stall(afterBytes: 50_000), path: "/blob.bin", count: 1)
            try await withEngine(Self.options { $0.lowSpeedTimeMs = 5_000 }) { engine in
                let (got, metrics) = try await Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                #expect(got == bytes)
                #expect(metrics.attempts == 2, "first byte of the last attempt after \(metrics.firstByteMs) ms; \(requests.entries)")
                print("stall test: resumed attempt's first byte after \(metrics.firstByteMs) ms")
                // The server logs the stalled request when the engine drops its connection.
                #expect(await requests.list.wait { $0.count >= 2 })
                let entries = requests.entries
                #expect(entries.contains { $0.outcome == .stalled && $0.bodyBytes == 50_000 }, "\(entries)")
                #expect(entries.contains { $0.outcome == .complete && $0.range == "bytes=50000-" && $0.bodyBytes == 250_000 },
                        "\(entries)")
            }
        }
    }

    @Test func aServerThatNeverAnswersEndsInATimeoutNotAHang() async throws {
        try await Self.withBlob(size: 1000) { server, _ in
            server.injectFault(.stall(afterBytes: 0), path: "/blob.bin", count: 10)
            try await withEngine(Self.options { $0.lowSpeedTimeMs = 150; $0.maxRetries = 1 }) { engine in
                let error = await #expect(throws: ReelError.self) {
                    try await Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                }
                #expect(error?.code == .timeout)
            }
        }
    }

    /// With one connection per host, the second transfer waits for the first one's connection
    /// longer than the stall window: waiting for a connection is not a stall, so it is neither
    /// timed out nor retried.
    @Test func waitingForAConnectionIsNotAStall() async throws {
        // 300 KB at 400 kbit/s: 6 s on the one connection, longer than the stall window of 5 s
        // (wide enough that a test machine's pauses of a second or two are not stalls).
        try await Self.withBlob(size: 300_000, profile: NetworkProfile(name: "slow", bandwidthKbps: 400)) { server, bytes in
            try await withEngine(Self.options { $0.maxConnectionsPerHost = 1; $0.lowSpeedTimeMs = 5000 }) { engine in
                async let first = Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                async let second = Self.fetch(engine, DataSpec(url: server.url(for: "blob.bin?again"), kind: .segment))
                let (a, b) = try await (first, second)
                #expect(a.0 == bytes && b.0 == bytes)
                #expect(a.1.attempts == 1 && b.1.attempts == 1, "attempts \(a.1.attempts) and \(b.1.attempts)")
                #expect(server.bill().requests == 2)
            }
        }
    }

    @Test func connectionRefusedIsAConnectError() async throws {
        // Port 1 on loopback, where nothing listens (a stopped server's port could be taken by
        // another test's server in the meantime).
        let url = URL(string: "http://127.0.0.1:1/blob.bin")!
        try await withEngine(Self.options { $0.maxRetries = 1 }) { engine in
            let error = await #expect(throws: ReelError.self) {
                try await Self.fetch(engine, DataSpec(url: url, kind: .segment))
            }
            #expect(error?.code == .connectionFailed)
            #expect(error?.message.contains(url.absoluteString) == true)
        }
    }

    @Test func bytesArriveBeforeTheTransferEnds() async throws {
        // 800 kbit/s: the whole body takes 4 s; the first bytes must be readable long before.
        let profile = NetworkProfile(name: "slow", bandwidthKbps: 800)
        try await Self.withBlob(size: 400_000, profile: profile) { server, bytes in
            try await withEngine { engine in
                let cancellation = Cancellation()
                let firstChunk = try await BlockingPool.shared.run { () -> [UInt8] in
                    let source = NetworkDataSource(engine: engine, cancellation: cancellation)
                    defer { source.close() }
                    _ = try source.open(DataSpec(url: server.url(for: "blob.bin"), kind: .segment))
                    var buffer = [UInt8](repeating: 0, count: 1000)
                    let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                    return Array(buffer[..<count])
                }
                #expect(!firstChunk.isEmpty)
                #expect(firstChunk == Array(bytes[..<firstChunk.count]))
                #expect(server.bill().bodyBytes < bytes.count)
            }
        }
    }

    /// The server sends the start of the body, then nothing (a stall the watchdog would only give
    /// up on after five minutes): once the reader has every byte that will come, it can only be
    /// waiting for more. The cancel must wake it and stop the transfer, which the server sees as
    /// its connection closing.
    @Test func cancellingWakesABlockedReaderAndStopsTheTransfer() async throws {
        let requests = RequestRecorder()
        try await Self.withBlob(size: 400_000, requests: requests) { server, _ in
            server.injectFault(.stall(afterBytes: 50_000), path: "/blob.bin", count: 1)
            try await withEngine(Self.options { $0.lowSpeedTimeMs = 300_000 }) { engine in
                let cancellation = Cancellation()
                let received = ReadProgress()
                async let outcome: Result<([UInt8], TransferMetrics), ReelError> = {
                    do {
                        let spec = DataSpec(url: server.url(for: "blob.bin"), kind: .segment)
                        return .success(try await Self.fetch(engine, spec, cancellation: cancellation, received: received))
                    } catch let error as ReelError { return .failure(error) }
                    catch { return .failure(ReelError(.internalFailure, "\(error)")) }
                }()
                #expect(await received.count.wait { $0 == 50_000 })
                cancellation.cancel()
                guard case .failure(let error) = await outcome else {
                    Issue.record("a cancelled fetch must not complete")
                    return
                }
                #expect(error.code == .cancelled, "\(error)")
                // Only the engine dropping the connection ends the stalled request on the server.
                #expect(await requests.list.wait { !$0.isEmpty }, "the stalled transfer was not stopped")
                #expect(requests.entries.first?.outcome == .stalled)
                #expect(server.bill().bodyBytes == 50_000)
            }
        }
    }
}

/// How many bytes a reader on another thread has read so far.
final class ReadProgress: Sendable {
    let count = Watched(0)
    var bytes: Int {
        get { count.current }
        set { count.update { $0 = newValue } }
    }
}
