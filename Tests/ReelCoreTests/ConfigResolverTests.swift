import ReelCore
import Testing

@Suite("Configuration layering")
struct ConfigResolverTests {
    let resolver = ConfigResolver()

    @Test("defaults < --config files in order < --set; absent keys keep the value below")
    func layering() throws {
        let first = try temporaryFile(#"{"prefetch.maxConcurrent": 3, "decoder.poolSize": 6, "network.userAgent": "A"}"#)
        defer { removeTemporaryFile(first) }
        let second = try temporaryFile(#"{"prefetch.maxConcurrent": 4}"#)
        defer { removeTemporaryFile(second) }
        let resolution = try resolver.resolve([.file(first), .file(second), .assignments(["decoder.poolSize=8"])])
        let config = resolution.config
        #expect(config.prefetch.maxConcurrent == 4)
        #expect(config.decoder.poolSize == 8)
        #expect(config.network.userAgent == "A")
        #expect(config.cache.enabled == true)
        #expect(resolution.origins["prefetch.maxConcurrent"] == "config file '\(second)'")
        #expect(resolution.origins["decoder.poolSize"] == "--set")
        #expect(resolution.origins["cache.enabled"] == nil)
    }

    @Test("later --set wins over earlier --set for the same key")
    func repeatedSet() throws {
        let config = try Fixtures.config(["prefetch.maxConcurrent=3", "prefetch.maxConcurrent=5"])
        #expect(config.prefetch.maxConcurrent == 5)
    }

    @Test("section objects are read as dotted keys")
    func nestedSections() throws {
        let config = try resolver.resolve([.json(#"{"playback": {"carousel": {"maxSimultaneous": 2}}, "prefetch.segments": {"page": 3}}"#, name: "t")]).config
        #expect(config.playback.carousel.maxSimultaneous == 2)
        #expect(config.prefetch.segments.page == 3)
    }

    @Test("a versioned value applies only from its minVersion on")
    func versionedValues() throws {
        let json = #"{"prefetch.maxConcurrent": {"value": 5, "minVersion": "0.1"}, "decoder.poolSize": {"value": 9, "minVersion": "2.0"}}"#
        let atDefault = try resolver.resolve([.json(json, name: "t")])
        #expect(atDefault.config.prefetch.maxConcurrent == 5)
        #expect(atDefault.config.decoder.poolSize == 4, "kept the lower layer's value")
        #expect(atDefault.skipped.count == 1)

        let newer = try resolver.resolve([.json(json, name: "t"), .assignments(["app.version=2.0.1"])])
        #expect(newer.config.decoder.poolSize == 9, "app.version from a later layer decides")

        let lowerLayer = try resolver.resolve([.assignments(["decoder.poolSize=7"]), .json(#"{"decoder.poolSize": {"value": 9, "minVersion": "3"}}"#, name: "t")])
        #expect(lowerLayer.config.decoder.poolSize == 7)
        #expect(ReelVersion("1.2") == ReelVersion("1.2.0"))
        #expect(ReelVersion("1.2")! < ReelVersion("1.10")!)
    }

    @Test("versioned values through --set")
    func versionedSet() throws {
        let config = try Fixtures.config([#"prefetch.maxConcurrent={"value": 6, "minVersion": "0.0.1"}"#])
        #expect(config.prefetch.maxConcurrent == 6)
    }

    @Test("malformed versioned values are errors", arguments: [
        #"{"decoder.poolSize": {"minVersion": "1.0"}}"#,
        #"{"decoder.poolSize": {"value": 2, "minVersion": "one"}}"#,
        #"{"decoder.poolSize": {"value": 2, "since": "1.0"}}"#,
        #"{"app.version": {"value": "2.0", "minVersion": "1.0"}}"#,
    ])
    func badVersioned(json: String) {
        #expect(throws: ReelError.self) { try resolver.resolve([.json(json, name: "t")]) }
    }

    @Test("an unknown key is refused, naming the nearest known key and the layer it came from")
    func unknownKey() throws {
        let error = try #require(throws: ReelError.self) {
            try resolver.resolve([.json(#"{"prefetch.maxConcurent": 3}"#, name: "f"), .assignments(["visiblity.short.ready=0.3"])])
        }
        #expect(error.code == .invalidConfig)
        #expect(error.message == "invalid configuration: f: unknown key 'prefetch.maxConcurent' (nearest known key: 'prefetch.maxConcurrent'); "
                + "--set: unknown key 'visiblity.short.ready' (nearest known key: 'visibility.short.ready')", "\(error.message)")
        let compared = try #require(throws: ReelError.self) {
            try resolver.resolve([.assignments(["prefetch.maxConcurent=4"], from: "--compare")])
        }
        #expect(compared.message.contains("--compare: unknown key 'prefetch.maxConcurent' (nearest known key: 'prefetch.maxConcurrent')"))
    }

    @Test("wrong types and out-of-range values are errors naming key, value and expectation", arguments: [
        ("prefetch.maxConcurrent=three", "prefetch.maxConcurrent", "'three'", "an integer in 1...64"),
        ("prefetch.maxConcurrent=0", "prefetch.maxConcurrent", "'0'", "an integer in 1...64"),
        ("device.isLowEnd=maybe", "device.isLowEnd", "'maybe'", "true or false"),
        ("visibility.short.ready=1.5", "visibility.short.ready", "'1.5'", "a number in 0...1"),
        ("prefetch.categories=imminent,soon", "prefetch.categories", "'imminent,soon'", "from \"imminent\""),
        ("app.version=latest", "app.version", "'latest'", "a version"),
        ("layout.carousel.cardAspectRatio=wide", "layout.carousel.cardAspectRatio", "'wide'", "height:width"),
        ("layout.carousel.cardAspectRatio=1e308:1", "layout.carousel.cardAspectRatio", "'1e308:1'", "between 1:10 and 10:1"),
    ])
    func badValues(assignment: String, key: String, value: String, expected: String) {
        do {
            _ = try resolver.resolve([.assignments([assignment])])
            Issue.record("expected an error for \(assignment)")
        } catch let error as ReelError {
            #expect(error.code == .invalidConfig)
            #expect(error.message.contains("'\(key)'"))
            #expect(error.message.contains(value))
            #expect(error.message.contains(expected))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("JSON values of the wrong type are errors")
    func badJSONTypes() {
        #expect(throws: ReelError.self) { try resolver.resolve([.json(#"{"decoder.poolSize": "4"}"#, name: "t")]) }
        #expect(throws: ReelError.self) { try resolver.resolve([.json(#"{"decoder.poolSize": 2.5}"#, name: "t")]) }
        #expect(throws: ReelError.self) { try resolver.resolve([.json(#"{"cache.enabled": 1}"#, name: "t")]) }
        #expect(throws: ReelError.self) { try resolver.resolve([.json(#"{"prefetch.categories": "page"}"#, name: "t")]) }
    }

    @Test("every error is reported at once")
    func allErrors() {
        do {
            _ = try resolver.resolve([.assignments(["decoder.poolSize=0", "decoder.threads=-1"])])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("decoder.poolSize"))
            #expect("\(error)".contains("decoder.threads"))
        }
    }

    @Test("--set reads values by the key's type")
    func setParsing() throws {
        let config = try Fixtures.config([
            "device.isLowEnd=yes", "visibility.hysteresis=0.05", "network.userAgent=Reel test/1.0 (x=y)",
            "prefetch.categories=[\"page\",\"imminent\"]", "widgets.merch.imageAspectRatios=1:1, 3:2", "cache.directory=",
        ])
        #expect(config.device.isLowEnd)
        #expect(config.visibility.hysteresis == 0.05)
        #expect(config.network.userAgent == "Reel test/1.0 (x=y)")
        #expect(config.prefetch.categories == ["page", "imminent"])
        #expect(config.widgets.merch.imageAspectRatios == ["1:1", "3:2"])
        #expect(config.cache.directory == "")
        #expect(throws: ReelError.self) { try Fixtures.config(["decoder.poolSize"]) }
    }

    @Test("integral numbers are accepted for integer keys and integers for number keys")
    func numericCoercion() throws {
        let config = try resolver.resolve([.json(#"{"decoder.poolSize": 3.0, "device.scale": 2}"#, name: "t")]).config
        #expect(config.decoder.poolSize == 3)
        #expect(config.device.scale == 2.0)
    }

    @Test("rules between keys are checked")
    func consistency() {
        #expect(throws: ReelError.self) { try Fixtures.config(["visibility.merch.pause=0.4", "visibility.merch.ready=0.3"]) }
        #expect(throws: ReelError.self) { try Fixtures.config(["visibility.short.unmount=0.05"]) }
        #expect(throws: ReelError.self) { try Fixtures.config(["widgets.carouselMinSize=7"]) }
        #expect(throws: ReelError.self) { try Fixtures.config(["layout.breakpoints.medium=2000"]) }
    }

    @Test("files that are not JSON objects, not JSON, or missing are errors")
    func badFiles() throws {
        #expect(throws: ReelError.self) { try resolver.resolve([.json("[1, 2]", name: "t")]) }
        #expect(throws: ReelError.self) { try resolver.resolve([.json("{\"a\": ", name: "t")]) }
        do {
            _ = try resolver.resolve([.file("/nonexistent/reel.json")])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "config file '/nonexistent/reel.json' not found")
        }
    }

    @Test("the effective values list every key in declaration order")
    func flatValues() throws {
        let config = try Fixtures.config(["prefetch.maxConcurrent=7"])
        let values = config.flatValues
        #expect(values.map(\.key) == ConfigSchema.reel.keys.map(\.key))
        #expect(values.first { $0.key == "prefetch.maxConcurrent" }?.value == .int(7))
        #expect(config.flatJSON["prefetch.maxConcurrent"] == .int(7))
    }

    @Test("a decoded configuration equals one built in code, and keeps descriptions")
    func decodedEqualsBuilt() throws {
        var expected = ReelConfig()
        expected.decoder.poolSize = 2
        let resolved = try Fixtures.config(["decoder.poolSize=2"])
        #expect(resolved == expected)
        #expect(try Fixtures.config() == ReelConfig())
    }
}
