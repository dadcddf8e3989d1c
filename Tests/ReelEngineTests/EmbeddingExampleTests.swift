import Foundation
import ReelCore
import ReelEngine
import ReelFeed
import ReelNet
import ReelServer
import ReelTestSupport
import Testing

/// The README's embedding example, compiled and run here: the lines between the markers are the
/// README's code block, word for word (the test checks), run against the bundled feed served on
/// loopback.
@Suite("The README's embedding example")
struct EmbeddingExampleTests {
    /// The example, as the README shows it (between the markers).
    static func example(catalogURL: URL) async throws -> SessionSummary {
        // README example begin
        let config = try ConfigResolver().resolve([]).config
        return try await ReelStack.with(config: config) { stack in
            // The app's feed: here a JSON catalog served over HTTP, paged by the configuration.
            let source = try await CatalogFeedSource.load(catalogURL, factory: stack.network, config: config)
            let engine = FeedEngine(stack: stack, source: source)
            engine.show()
            // Wait for the first video on screen to show its first frame.
            for await event in engine.events {
                if case .firstFrame(let frame) = event.kind {
                    print("\(frame.card) started in \(frame.ttffMs) ms")
                    break
                }
            }
            // The user scrolls one screen down, then the app goes to the background.
            engine.scroll(to: 844)
            engine.background()
            let outcome = await engine.close()
            return outcome.summary
        }
        // README example end
    }

    @Test("it runs against the bundled feed, and it is the README's code word for word")
    func theExampleRunsAndIsTheREADMEs() async throws {
        let summary = try await withSampleServer(profile: .wifi) { server in
            try await Self.example(catalogURL: server.url(for: "video-feed.json"))
        }
        #expect(summary.plays >= 1 && summary.frames > 0, "\(summary.json)")

        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let begin = try #require(lines.firstIndex { $0.contains("// README example begin") })
        let end = try #require(lines.firstIndex { $0.contains("// README example end") })
        let indent = lines[begin + 1].prefix { $0 == " " }.count
        let code = lines[(begin + 1)..<end].map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
        let readme = try String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let block = "```swift\n" + code.joined(separator: "\n") + "\n```"
        #expect(readme.contains(block), "README.md must show the example exactly as this test runs it:\n\(block)")
    }
}
