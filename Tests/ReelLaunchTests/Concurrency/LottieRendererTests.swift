import Foundation
import OrderedCollections
import ReelCore
import ReelLaunch
import ReelSplash
import Testing

/// Splash assets checked and drawn with rlottie: the samples' verdicts, the limits at their
/// edges, and broken or hostile documents refused before rlottie sees them.
@Suite("Lottie renderer")
struct LottieRendererTests {
    static let limits = SplashAssetLimits()

    struct SampleCase: Sendable, CustomTestStringConvertible {
        var file: String
        var frames: Int?
        var fps: Double?
        var problem: String?
        var testDescription: String { file }
    }

    static let samples: [SampleCase] = [
        SampleCase(file: "snowfall.json", frames: 60, fps: 30),
        SampleCase(file: "lanterns.json", frames: 72, fps: 24),
        SampleCase(file: "confetti.json", frames: 40, fps: 25),
        SampleCase(file: "fast-60fps.json", frames: 120, fps: 60, problem: "60 fps, more than launch.splash.maxFPS (30)"),
        SampleCase(file: "long-10s.json", frames: 300, fps: 30, problem: "10.00 s long, more than launch.splash.maxSeconds (3)"),
        SampleCase(file: "big-2mib.json", frames: 60, fps: 30, problem: "more than launch.splash.maxBytes (1048576)"),
        SampleCase(file: "malformed.json", problem: "not JSON"),
        SampleCase(file: "text-layer.json", frames: 60, fps: 30, problem: "layer 'greeting' is a text layer (ty 5): rlottie draws no text"),
    ]

    @Test(arguments: samples)
    func theSamplesVerdicts(_ sample: SampleCase) async throws {
        let bytes = try LaunchSamples.bytes(sample.file)
        let report = await LottieRenderer().check(bytes, limits: Self.limits, measuringPastLimits: true)
        #expect(report.bytes == bytes.count)
        #expect(report.frames == sample.frames)
        #expect(report.fps == sample.fps)
        if let problem = sample.problem {
            #expect(!report.isValid)
            // Drawing speed is the machine's (a sanitizer build on a busy 2-core runner can find
            // a sample too slow): only the document's own problems are the sample's verdict.
            let problems = report.problems.filter { !$0.hasPrefix("too slow to draw") }
            #expect(problems.count == 1, "\(report.problems)")
            #expect(problems.first?.contains(problem) == true, "\(report.problems)")
        } else {
            #expect(report.isValid, "\(report.problems)")
            #expect((report.seconds ?? 99) <= 3)
            #expect(report.width == 540 && report.height == 960)
            let render = try #require(report.renderMs)
            let p50 = try #require(render.p50), p95 = try #require(render.p95), max = try #require(render.max)
            #expect(p50 > 0 && p50 <= p95 && p95 <= max)
        }
    }

    @Test func withoutMeasuringAnAssetOverItsSizeIsNotEvenParsed() async throws {
        let report = await LottieRenderer().check(try LaunchSamples.bytes("big-2mib.json"), limits: Self.limits)
        #expect(report.frames == nil && report.renderMs == nil)
        #expect(report.problems == ["2105859 bytes, more than launch.splash.maxBytes (1048576)"])
    }

    @Test func eachLimitIncludesItsEdge() async throws {
        let bytes = try LaunchSamples.bytes("snowfall.json")
        let renderer = LottieRenderer()
        // 30 fps and 2 s against limits of exactly 30 fps, 2 s and its own size.
        let exact = SplashAssetLimits(maxFPS: 30, maxSeconds: 2, maxBytes: bytes.count)
        #expect(await renderer.check(bytes, limits: exact).problems == [])
        #expect(await renderer.check(bytes, limits: SplashAssetLimits(maxFPS: 29.9, maxSeconds: 2, maxBytes: bytes.count)).problems.count == 1)
        #expect(await renderer.check(bytes, limits: SplashAssetLimits(maxFPS: 30, maxSeconds: 1.99, maxBytes: bytes.count)).problems.count == 1)
        #expect(await renderer.check(bytes, limits: SplashAssetLimits(maxFPS: 30, maxSeconds: 2, maxBytes: bytes.count - 1)).problems.count == 1)
    }

    @Test func twoDocumentsCheckedInARowKeepTheirOwnFigures() async throws {
        let renderer = LottieRenderer()
        let snow = await renderer.check(try LaunchSamples.bytes("snowfall.json"), limits: Self.limits)
        let lanterns = await renderer.check(try LaunchSamples.bytes("lanterns.json"), limits: Self.limits)
        let snowAgain = await renderer.check(try LaunchSamples.bytes("snowfall.json"), limits: Self.limits)
        #expect(snow.frames == 60 && lanterns.frames == 72 && snowAgain.frames == 60)
    }

    /// A minimal valid document to break one field of. Keys keep their order: rlottie 0.1 reads
    /// a shape's "ty" before its other fields.
    static func document(_ change: (inout OrderedDictionary<String, JSONValue>) -> Void) -> [UInt8] {
        Array(JSONWriter.compact(.object(documentFields(change))).utf8)
    }

    static func documentFields(_ change: (inout OrderedDictionary<String, JSONValue>) -> Void) -> OrderedDictionary<String, JSONValue> {
        func value(_ k: JSONValue) -> JSONValue { .object(["a": .int(0), "k": k]) }
        func pair(_ x: Int, _ y: Int) -> JSONValue { .array([.int(x), .int(y)]) }
        let shape: JSONValue = .object(["ty": .string("gr"), "it": .array([
            .object(["ty": .string("rc"), "p": value(pair(50, 50)), "s": value(pair(80, 80)), "r": value(.int(0))]),
            .object(["ty": .string("fl"), "c": value(.array([.int(1), .int(0), .int(0), .int(1)])), "o": value(.int(100))]),
            .object(["ty": .string("tr"), "p": value(pair(0, 0)), "a": value(pair(0, 0)), "s": value(pair(100, 100)),
                     "r": value(.int(0)), "o": value(.int(100))]),
        ])])
        var root: OrderedDictionary<String, JSONValue> = [
            "v": .string("5.7.0"), "fr": .int(30), "ip": .int(0), "op": .int(30), "w": .int(100), "h": .int(100), "assets": .array([]),
            "layers": .array([.object(["ty": .int(4), "nm": .string("box"), "ind": .int(1), "ip": .int(0), "op": .int(30), "st": .int(0),
                                       "ks": .object([:]), "shapes": .array([shape])])]),
        ]
        change(&root)
        return root
    }

    /// The same document with every object's keys sorted, "ty" after the fields it governs.
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let fields):
            var result: OrderedDictionary<String, JSONValue> = [:]
            for key in fields.keys.sorted() { result[key] = sorted(fields[key]!) }
            return .object(result)
        case .array(let elements): return .array(elements.map(sorted))
        default: return value
        }
    }

    @Test func theMinimalDocumentIsValid() async {
        let report = await LottieRenderer().check(Self.document { _ in }, limits: Self.limits)
        #expect(report.isValid, "\(report.problems)")
    }

    static let broken: [(String, [UInt8], String)] = [
        ("garbage", Array("hello world".utf8), "not JSON"),
        ("an array", Array("[1, 2, 3]".utf8), "not a Lottie animation"),
        ("an empty object", Array("{}".utf8), "not a Lottie animation"),
        ("nesting past the parser's limit", Array((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8), "not JSON"),
        ("no frame rate", document { $0["fr"] = nil }, "no frame rate"),
        ("a zero frame rate", document { $0["fr"] = .int(0) }, "frame rate 0 is not positive"),
        ("out before in", document { $0["op"] = .int(0) }, "out point 0 is not after in point 0"),
        ("no canvas", document { $0["w"] = nil }, "no canvas size"),
        ("a huge canvas", document { $0["w"] = .int(100_000); $0["h"] = .int(100_000) }, "outside 1...4096"),
        ("a large canvas", document { $0["w"] = .int(4096); $0["h"] = .int(4096) }, "larger than 4194304 pixels"),
        ("no layers", document { $0["layers"] = .array([]) }, "no layers"),
        ("a layer of unknown type", document { $0["layers"] = .array([.object(["ty": .int(99), "nm": .string("odd")])]) },
         "layer 'odd' has type 99"),
        ("a layer without type", document { $0["layers"] = .array([.object(["nm": .string("untyped")])]) },
         "layer 'untyped' has no type"),
        ("a text layer in a precomposition", document {
            $0["assets"] = .array([.object(["id": .string("pre"), "layers": .array([.object(["ty": .int(5), "nm": .string("words")])])])])
        }, "layer 'words' is a text layer"),
        ("an external image", document {
            $0["assets"] = .array([.object(["id": .string("img"), "w": .int(10), "h": .int(10), "u": .string("/etc/"),
                                            "p": .string("passwd")])])
            $0["layers"] = .array([.object(["ty": .int(2), "nm": .string("photo"), "refId": .string("img"), "ip": .int(0),
                                            "op": .int(30), "st": .int(0), "ks": .object([:])])])
        }, "image asset 'img' refers to '/etc/passwd' instead of embedding it"),
        ("a repeater of 10^8 copies", document {
            $0["layers"] = .array([.object(["ty": .int(4), "nm": .string("many"), "ip": .int(0), "op": .int(30), "st": .int(0),
                                            "ks": .object([:]), "shapes": .array([
                .object(["ty": .string("rp"), "c": .object(["a": .int(0), "k": .int(100_000_000)]), "o": .object(["a": .int(0), "k": .int(0)])]),
            ])])])
        }, "a repeater makes 100000000 copies"),
        // rlottie 0.1 reads a shape's "ty" before its other fields and draws nothing of one
        // whose "ty" comes last (sorted keys).
        ("sorted keys", Array(JSONWriter.compact(sorted(.object(documentFields { _ in }))).utf8), "every frame is blank"),
    ]

    @Test(arguments: broken.indices)
    func brokenDocumentsAreRefusedWithTheirProblem(_ index: Int) async {
        let (name, bytes, problem) = Self.broken[index]
        let report = await LottieRenderer().check(bytes, limits: Self.limits, measuringPastLimits: true)
        #expect(!report.isValid, "\(name)")
        #expect(report.problems.contains { $0.contains(problem) }, "\(name): \(report.problems)")
    }

    @Test func aRenderedFrameIsNotBlank() async throws {
        let renderer = LottieRenderer()
        let confetti = try await renderer.render(try LaunchSamples.bytes("confetti.json"), frame: 20, name: "confetti.json")
        #expect(confetti.width == 540 && confetti.height == 960)
        #expect(confetti.pixels.count == 540 * 960 * 4)
        #expect(confetti.coveredPixels == 540 * 960, "the background covers the canvas")
        #expect(confetti.distinctColors() >= 5, "background and four confetti colours")
        let snow = try await renderer.render(try LaunchSamples.bytes("snowfall.json"), frame: 0, name: "snowfall.json")
        // The night sky, (0.05, 0.1, 0.25) opaque, in the top-left corner (rlottie rounds down).
        let corner = snow.pixels[0..<4].map(Int.init)
        #expect(zip(corner, [13, 26, 64, 255]).allSatisfy { abs($0 - $1) <= 1 }, "\(corner)")
    }

    @Test func renderRefusesWhatItCannotDraw() async throws {
        let renderer = LottieRenderer()
        let text = try await #require(throws: ReelError.self) {
            try await renderer.render(try LaunchSamples.bytes("text-layer.json"), frame: 0, name: "text-layer.json")
        }
        #expect(text.message.contains("'text-layer.json' cannot be drawn") && text.message.contains("text layer"))
        let range = try await #require(throws: ReelError.self) {
            try await renderer.render(try LaunchSamples.bytes("confetti.json"), frame: 40, name: "confetti.json")
        }
        #expect(range.message.contains("has frames 0...39; there is no frame 40"))
        let json = try await #require(throws: ReelError.self) {
            try await renderer.render(try LaunchSamples.bytes("malformed.json"), frame: 0, name: "malformed.json")
        }
        #expect(json.message.contains("'malformed.json' is not JSON"))
    }
}
