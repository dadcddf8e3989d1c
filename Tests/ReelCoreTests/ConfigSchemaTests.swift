import Foundation
import ReelCore
import Testing

@Suite("Configuration schema")
struct ConfigSchemaTests {
    let schema = ConfigSchema.reel

    @Test("keys the rest of Reel reads are declared with their agreed defaults")
    func agreedDefaults() throws {
        let expected: [String: JSONValue] = [
            "app.version": .string(ReelVersion.current.description),
            "device.isLowEnd": .bool(false),
            "device.screenWidth": .int(390), "device.screenHeight": .int(844),
            "device.maxVideoWidth": .int(1080), "device.maxVideoHeight": .int(1920),
            "device.bandwidthEstimateKbps": .int(8000),
            "network.connectTimeoutMs": .int(5000), "network.lowSpeedLimitBytesPerSecond": .int(1024),
            "network.lowSpeedTimeMs": .int(4_000), "network.maxRetries": .int(3), "network.retryBackoffMs": .int(100),
            "network.maxConnectionsPerHost": .int(6), "network.http2": .bool(true),
            "cache.maxBytes": .int(512 * 1024 * 1024), "cache.directory": .string(""), "cache.enabled": .bool(true),
            "decoder.poolSize": .int(4), "decoder.lowEndPoolSize": .int(1), "decoder.threads": .int(1),
            "decoder.probeSizeBytes": .int(32_768), "decoder.analyzeDurationMs": .int(500), "decoder.findStreamInfo": .bool(false),
            "playback.short.maxSimultaneous": .int(1), "playback.carousel.maxSimultaneous": .int(3),
            "playback.merch.maxSimultaneous": .int(0), "playback.previewSeconds.short": .double(0),
            "playback.previewSeconds.carousel": .double(5), "playback.bufferWatermarkMs": .int(1000),
            "prefetch.enabled": .bool(true), "prefetch.maxConcurrent": .int(2), "prefetch.lowEndMaxConcurrent": .int(1),
            "prefetch.categories": .array(["imminent", "nearby", "page", "background"].map { .string($0) }),
            "prefetch.segments.imminent": .int(1), "prefetch.segments.nearby": .int(1),
            "prefetch.segments.page": .int(1), "prefetch.segments.background": .int(1),
            "prefetch.lowEndSegments": .int(1), "prefetch.pauseWhileStarving": .bool(true),
            "feed.maxContentWidth": .int(768),
            "widgets.carouselEvery": .int(4), "widgets.carouselSize": .int(6),
            "visibility.short.mount": .double(0.01), "visibility.short.ready": .double(0.2),
            "visibility.short.softRelease": .double(0.5), "visibility.short.pause": .double(0.2),
            "visibility.short.unmount": .double(0),
            "layout.carousel.visibleCards.small": .double(2.5), "layout.carousel.visibleCards.medium": .double(3.5),
            "layout.carousel.visibleCards.large": .double(3.5),
        ]
        for (key, value) in expected {
            let info = try #require(schema.info(for: key), "missing key \(key)")
            #expect(info.defaultValue == value, "default of \(key)")
        }
        #expect(schema.info(for: "network.userAgent")?.typeName == "string")
    }

    @Test("every key has a type, a one-line description and a default that passes its own rule")
    func everyKeyDescribed() {
        #expect(schema.keys.count >= 90)
        #expect(Set(schema.keys.map(\.key)).count == schema.keys.count)
        for info in schema.keys {
            #expect(!info.description.isEmpty, "\(info.key) has no description")
            #expect(!info.description.contains("\n"), "\(info.key) description is not one line")
            #expect(["int", "number", "bool", "string", "[string]"].contains(info.typeName))
            #expect(info.validate(info.defaultValue) != nil, "default of \(info.key) breaks its rule")
        }
        #expect(ReelConfig().consistencyProblems().isEmpty)
    }

    @Test("visibility thresholds exist for every widget type")
    func perTypeThresholds() {
        for type in WidgetType.allCases {
            for name in ["mount", "ready", "softRelease", "pause", "unmount"] {
                #expect(schema.contains("visibility.\(type.rawValue).\(name)"))
            }
        }
    }

    /// A configuration section holds only `@Setting`s and sections: a plain stored property
    /// would be readable by code yet missing from the schema and `reel config defaults`.
    @Test("sections hold only settings and sections")
    func noPlainPropertiesInSections() {
        func plainProperties(_ section: Any, path: String) -> [String] {
            Mirror(reflecting: section).children.flatMap { child -> [String] in
                let label = (child.label ?? "?").trimmingCharacters(in: CharacterSet(charactersIn: "_"))
                let childPath = path.isEmpty ? label : "\(path).\(label)"
                if child.value is any ConfigSection { return plainProperties(child.value, path: childPath) }
                return String(describing: type(of: child.value)).hasPrefix("Setting<") ? [] : [childPath]
            }
        }
        #expect(plainProperties(ReelConfig(), path: "") == [])
    }

    /// Every `@Setting` in ReelCore's sources is found by the schema (reflection misses nothing).
    @Test("the schema holds exactly the declared settings")
    func schemaMatchesDeclarations() throws {
        var declarations = 0
        for file in try swiftFiles(under: "Sources/ReelCore/Config") {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            declarations += text.components(separatedBy: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@Setting(") }.count
        }
        // VisibilitySettings.Thresholds is declared once and used for three widget types.
        let thresholdKeys = 5
        #expect(declarations + 2 * thresholdKeys == schema.keys.count)
    }

    /// Reading configuration in code goes through `config.<section>....<key>`; every such chain in
    /// any module must name a declared key or section, so `reel config defaults` lists every key
    /// Reel reads.
    @Test("code reads only declared keys")
    func codeReadsDeclaredKeys() throws {
        let members: Set<String> = ["appVersion", "flatValues", "flatJSON", "consistencyProblems"]
        // A file name such as "splash-config.json" is no read.
        let pattern = try NSRegularExpression(pattern: #"(?<![-/])\bconfig\.((?:[a-z][A-Za-z0-9]*\.)*[a-z][A-Za-z0-9]*)\b(?!\s*\()"#)
        var chains = 0
        for file in try swiftFiles(under: "Sources") {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                guard let chainRange = Range(match.range(at: 1), in: text) else { continue }
                let parts = text[chainRange].split(separator: ".").map(String.init)
                chains += 1
                if let first = parts.first, members.contains(first) { continue }
                var path = ""
                var resolved = false
                for part in parts {
                    path = path.isEmpty ? part : "\(path).\(part)"
                    if schema.contains(path) { resolved = true; break }
                    guard schema.sections.contains(path) else { break }
                    resolved = true
                }
                #expect(resolved, "\(file): config.\(parts.joined(separator: ".")) reads an undeclared key")
            }
        }
        #expect(chains > 10, "the scan found too few reads to be working")
    }

    /// The documentation lists every key, and every key it lists exists.
    @Test("docs/config-and-feed.md documents every key")
    func documented() throws {
        let text = try String(contentsOfFile: Fixtures.path("docs/config-and-feed.md"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"^\| `([A-Za-z0-9]+(?:\.[A-Za-z0-9]+)+)` \|"#, options: [.anchorsMatchLines])
        let documented = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
        let declared = schema.keys.map(\.key)
        #expect(Set(declared).subtracting(documented).sorted() == [])
        #expect(Set(documented).subtracting(declared).sorted() == [])
    }

    @Test("nearest key for a typo")
    func nearestKey() {
        #expect(schema.nearestKey(to: "prefetch.maxConcurent") == "prefetch.maxConcurrent")
        #expect(schema.nearestKey(to: "Playback.Carousel.MaxSimultaneous") == "playback.carousel.maxSimultaneous")
    }

    private func swiftFiles(under relative: String) throws -> [String] {
        let root = Fixtures.path(relative)
        guard let enumerator = FileManager.default.enumerator(atPath: root) else {
            throw ReelError(.notFound, "source directory '\(root)' not found")
        }
        let files = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(root)/\($0)" }
        try #require(!files.isEmpty, "no Swift files under \(root)")
        return files
    }
}
