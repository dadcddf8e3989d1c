import Foundation
import ReelCore
import ReelFeed
import Testing

/// Paths and builders shared by the feed tests.
enum Fixtures {
    /// The package's root directory, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    static func path(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// The 144-entry catalog in the original schema; a missing file fails the test.
    static func catalog144() throws -> FeedCatalog {
        try FeedCatalog.load(path: path("Tests/Fixtures/video-feed-144.json"))
    }

    /// Catalog JSON in the original schema with `count` entries cycling through `ratios`.
    static func catalogJSON(count: Int, ratios: [String] = ["16:9"]) -> String {
        let entries = (0..<count).map { index in
            """
            {"video_source": {"sourceType": "HLS", "type": "FeedsVideoSource", "resolution": 0, "url": "https://cdn.test/\(index)/manifest.m3u8"},
             "thumbail": {"width": 0, "height": 0, "type": "ImageValue", "aspectRatio": "\(ratios[index % ratios.count])",
                          "dynamicImageUrl": "https://img.test/{@width}/{@height}/\(index).jpg?q={@quality}"}}
            """
        }
        return "[" + entries.joined(separator: ",\n") + "]"
    }

    static func catalog(count: Int, ratios: [String] = ["16:9"]) throws -> FeedCatalog {
        try FeedCatalog.parse(catalogJSON(count: count, ratios: ratios))
    }

    /// The defaults with `--set` style assignments applied.
    static func config(_ assignments: [String] = []) throws -> ReelConfig {
        try ConfigResolver().resolve(assignments.isEmpty ? [] : [.assignments(assignments)]).config
    }

    /// A controller with every page of `api` delivered at time 0.
    static func loadedController(_ api: FeedAPI, config: ReelConfig, screen: Size = Size(width: 390, height: 844)) -> FeedController {
        var controller = FeedController(config: config, screen: screen)
        for page in api.pages() {
            _ = controller.receive(page, at: 0)
        }
        return controller
    }

    /// Transitions of a controller output.
    static func transitions(_ output: FeedOutput) -> [VisibilityTransition] {
        output.events.compactMap { event in
            if case .transition(let transition) = event.kind { return transition }
            return nil
        }
    }
}

/// Writes `text` to a new temporary file in a folder of its own and returns its path; the caller
/// removes it with `removeTemporaryFile`.
func temporaryFile(_ text: String, name: String = "file.json") throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-core-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

/// Removes a file made by `temporaryFile`, with its folder.
func removeTemporaryFile(_ path: String) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
}
