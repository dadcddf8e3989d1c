import Foundation
import ReelCore
import Testing

/// Configuration layers built to cost time or to inject: many unknown keys cost linear time with
/// a bounded number of suggestions, and a header value holding control characters is refused.
/// Elapsed times are printed, never asserted.
@Suite("Hostile configuration")
struct ConfigHostileInputTests {
    let resolver = ConfigResolver()

    /// Seconds of work in a debug build: on a blocking thread, not the cooperative pool's few.
    @Test("200,000 unknown keys: refused; the first 20 get a suggestion, the rest one line per layer")
    func manyUnknownKeys() async throws {
        var json = "{"
        json.reserveCapacity(5_000_000)
        for index in 0..<200_000 { json += "\"prefetch.maxConcurent\(index)\": 1," }
        json += "\"decoder.poolSize\": 3}"
        let start = ContinuousClock.now
        let error = await #expect(throws: ReelError.self) {
            try await BlockingPool.shared.run { [resolver, json] in
                try resolver.resolve([.json(json, name: "big"), .assignments(["nope=1", "decoder.threads=2"])])
            }
        }
        print("200,000 unknown keys: refused in \(ContinuousClock.now - start)")
        let lines = try #require(error).message.split(separator: "; ").map(String.init)
        #expect(lines.count == 22)
        #expect(lines[0] == "invalid configuration: big: unknown key 'prefetch.maxConcurent0' (nearest known key: 'prefetch.maxConcurrent')")
        #expect(lines[20] == "big: 199980 more unknown keys")
        #expect(lines[21] == "--set: 1 more unknown key")
        #expect(error?.code == .invalidConfig)
    }

    @Test("a configuration file over 4 MiB is refused before it is read")
    func hugeFile() throws {
        let path = try temporaryFile("{" + String(repeating: " ", count: ConfigResolver.maxFileBytes) + "}")
        defer { removeTemporaryFile(path) }
        let error = try #require(throws: ReelError.self) { try resolver.resolve([.file(path)]) }
        #expect(error.code == .invalidConfig)
        #expect(error.message == "config file '\(path)' is \(ConfigResolver.maxFileBytes + 2) bytes, over the limit of 4194304 bytes")
    }

    @Test("a huge unknown key is cut and compared with nothing")
    func hugeUnknownKey() throws {
        let key = String(repeating: "x", count: 1_000_000)
        let error = try #require(throws: ReelError.self) { try resolver.resolve([.json("{\"\(key)\": 1}", name: "f")]) }
        #expect(error.message == "invalid configuration: f: unknown key '\(String(repeating: "x", count: 100))... (1000000 characters)'")
    }

    @Test("a key with a line break is shown on one line")
    func unknownKeyWithLineBreak() throws {
        let error = try #require(throws: ReelError.self) { try resolver.resolve([.json(#"{"a\r\nb": 1}"#, name: "f")]) }
        #expect(error.message.hasPrefix(#"invalid configuration: f: unknown key 'a\r\nb'"#), "\(error.message)")
    }

    @Test("a User-Agent with control characters is refused, naming the key", arguments: [
        "Reel/1.0\r\nX-Injected: yes", "Reel/1.0\nHost: evil.example", "Reel\u{0}", "Reel\u{7F}", "Reel\tTab",
    ])
    func headerInjection(value: String) throws {
        for source in [ConfigSource.assignments(["network.userAgent=\(value)"]),
                       .json("{\"network.userAgent\": \(JSONWriter.quoted(value))}", name: "f")] {
            let error = try #require(throws: ReelError.self) { try resolver.resolve([source]) }
            #expect(error.code == .invalidConfig)
            #expect(error.message.contains("key 'network.userAgent'"), "\(error.message)")
            #expect(error.message.contains("without control characters such as CR or LF (it is sent as an HTTP header)"))
            #expect(!error.message.contains("\n") && !error.message.contains("\r"), "\(error.message)")
        }
    }

    @Test("a User-Agent of printable text is kept")
    func printableUserAgent() throws {
        let config = try resolver.resolve([.assignments(["network.userAgent=Reel/2.0 (Linux; x=y) é"])]).config
        #expect(config.network.userAgent == "Reel/2.0 (Linux; x=y) é")
    }
}
