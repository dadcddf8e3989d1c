import Foundation
import OrderedCollections
import ReelCore
import ReelLaunch
import ReelSplash
import Testing

/// Lottie documents that are small but cost rlottie gigabytes or forever: refused by what drawing
/// them costs (copies multiplied through nested repeaters and precompositions, matte buffers
/// times the canvas, decoded image pixels, dashes of 0 or less), before rlottie sees a byte.
@Suite("Lottie bounds")
struct LottieBoundsTests {
    typealias Fields = OrderedDictionary<String, JSONValue>

    static func value(_ k: JSONValue) -> JSONValue { .object(["a": .int(0), "k": k]) }
    static func pair(_ x: Int, _ y: Int) -> JSONValue { .array([.int(x), .int(y)]) }
    static let transform: JSONValue = .object(["ty": .string("tr"), "p": value(pair(0, 0)), "a": value(pair(0, 0)),
                                               "s": value(pair(100, 100)), "r": value(.int(0)), "o": value(.int(100))])
    static func rectangle(_ side: Int = 20) -> JSONValue {
        .object(["ty": .string("rc"), "p": value(pair(side / 2, side / 2)), "s": value(pair(side, side)), "r": value(.int(0))])
    }
    static let fill: JSONValue = .object(["ty": .string("fl"), "c": value(.array([.int(1), .int(0), .int(0), .int(1)])), "o": value(.int(100))])
    static func repeater(_ copies: Int, scale: Int = 100) -> JSONValue {
        .object(["ty": .string("rp"), "c": value(.int(copies)), "o": value(.int(0)), "m": .int(1),
                 "tr": .object(["ty": .string("tr"), "p": value(pair(1, 0)), "a": value(pair(0, 0)), "s": value(pair(scale, scale)),
                                "r": value(.int(0)), "so": value(.int(100)), "eo": value(.int(100))])])
    }
    static func group(_ items: [JSONValue]) -> JSONValue { .object(["ty": .string("gr"), "it": .array(items + [transform])]) }
    static func stroke(_ width: Double) -> JSONValue {
        .object(["ty": .string("st"), "c": value(.array([.int(0), .int(0), .int(1), .int(1)])), "o": value(.int(100)), "w": value(.double(width))])
    }
    /// A transform (`ks` or `tr`) scaling by `percent`.
    static func scaling(_ percent: Double, _ type: String? = nil) -> JSONValue {
        var fields: Fields = ["s": value(.array([.double(percent), .double(percent)]))]
        if let type { fields["ty"] = .string(type) }
        return .object(fields)
    }
    static func shapeLayer(_ shapes: [JSONValue], index: Int = 1, _ extra: Fields = [:]) -> JSONValue {
        var fields: Fields = ["ty": .int(4), "ind": .int(index), "ip": .int(0), "op": .int(30), "st": .int(0), "ks": .object([:]),
                              "shapes": .array(shapes)]
        fields.merge(extra) { $1 }
        return .object(fields)
    }
    static func layer(_ fields: Fields) -> JSONValue {
        var layer: Fields = ["ind": .int(1), "ip": .int(0), "op": .int(30), "st": .int(0), "ks": .object([:])]
        layer.merge(fields) { $1 }
        return .object(layer)
    }
    static func document(_ layers: [JSONValue], width: Int = 512, height: Int = 512, assets: [JSONValue] = [], op: Int = 30) -> [UInt8] {
        Array(JSONWriter.compact(.object(["v": .string("5.7.0"), "fr": .int(30), "ip": .int(0), "op": .int(op), "w": .int(width),
                                          "h": .int(height), "assets": .array(assets), "layers": .array(layers)])).utf8)
    }
    static func image(_ id: String, _ fields: Fields) -> JSONValue {
        var asset: Fields = ["id": .string(id), "w": .int(10), "h": .int(10), "u": .string("")]
        asset.merge(fields) { $1 }
        return .object(asset)
    }
    /// A PNG's signature and IHDR claiming `width` x `height`: all Reel reads, all rlottie needs to allocate.
    static func pngHeader(width: UInt32, height: UInt32) -> String {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be(width) + be(height)
            + [8, 6, 0, 0, 0, 0, 0, 0, 0]
        return "data:image/png;base64," + Data(bytes).base64EncodedString()
    }

    static let hostile: [(String, [UInt8], String)] = [
        ("three nested repeaters of 1,000 copies", document([shapeLayer([group([group([group([rectangle(), fill, repeater(1000)]), repeater(1000)]), repeater(1000)])])]),
         "a frame draws 1000000000 shapes, counting the copies of nested repeaters and precompositions (at most 20000)"),
        ("a dash of -1 and a gap of -1", document([shapeLayer([group([
            .object(["ty": .string("el"), "p": value(pair(256, 256)), "s": value(pair(400, 400))]),
            .object(["ty": .string("st"), "nm": .string("ring"), "c": value(.array([.int(0), .int(0), .int(0), .int(1)])), "o": value(.int(100)),
                     "w": value(.int(2)), "d": .array([.object(["n": .string("d"), "v": value(.int(-1))]), .object(["n": .string("g"), "v": value(.int(-1))])])]),
         ])])]), "stroke 'ring' has a dash of -1: dashes and gaps must be more than 0 (and 1 more like it)"),
        // What libFuzzer found: rlottie filled 4 GB. It reads 4, 4, -125, 4 as two dashes and gaps.
        ("an offset of -125 between dashes", document([shapeLayer([group([rectangle(), .object([
            "ty": .string("st"), "nm": .string("dotted"), "c": value(.array([.int(0), .int(0), .int(0), .int(1)])), "o": value(.int(100)), "w": value(.int(2)),
            "d": .array([("d", 4), ("g", 4), ("o", -125), ("d", 4)].map { .object(["n": .string($0.0), "v": value(.int($0.1))]) })])])])]),
         "stroke 'dotted' has a dash of -125 (an offset before the last entry, which rlottie reads as a dash): dashes and gaps must be more than 0"),
        ("precompositions referencing the next 10 times over 9 levels", document(
            [layer(["ty": .int(0), "refId": .string("c0")])],
            assets: (0..<9).map { level in
                .object(["id": .string("c\(level)"), "layers": .array((1...10).map { layer(["ty": .int(0), "refId": .string("c\(level + 1)"), "ind": .int($0)]) })])
            } + [.object(["id": .string("c9"), "layers": .array([shapeLayer([group([rectangle(), fill])])])])]),
         "2111111111 layers, counting a precomposition's layers once for each layer referencing it (at most 5000)"),
        ("20 mattes of 2048x2048", document((0..<20).flatMap { pair in
            [shapeLayer([group([rectangle(), fill])], index: 2 * pair + 1, ["td": .int(1)]), shapeLayer([group([rectangle(), fill])], index: 2 * pair + 2, ["tt": .int(1)])]
        }, width: 2048, height: 2048), "mattes and masks keep 40 buffers of 2048x2048, 671.1 MB (at most 268.4 MB)"),
        ("masks of 2048x2048", document([shapeLayer([group([rectangle(), fill])], ["masksProperties": .array(Array(repeating: .object(["mode": .string("a")]), count: 17))])],
                                        width: 2048, height: 2048), "mattes and masks keep 17 buffers of 2048x2048"),
        ("an embedded 12000x12000 PNG", document([layer(["ty": .int(2), "refId": .string("img")])],
                                                 assets: [image("img", ["p": .string(pngHeader(width: 12_000, height: 12_000)), "e": .int(1)])]),
         "embedded images decode to 144000000 pixels, 576.0 MB (at most 8388608 pixels)"),
        ("60 full-canvas solids", document((1...60).map { layer(["ty": .int(1), "sc": .string("#ff0000"), "sw": .int(540), "sh": .int(960), "ind": .int($0)]) },
                                           width: 540, height: 960), "solids and images paint 60 canvases a frame (at most 50)"),
        ("precompositions expanding past the layer bound", document((1...60).map { layer(["ty": .int(0), "refId": .string("many"), "ind": .int($0)]) },
            assets: [.object(["id": .string("many"), "layers": .array((1...100).map { shapeLayer([group([rectangle(), fill])], index: $0) })])]),
         "6060 layers"),
        ("a precomposition containing itself", document([layer(["ty": .int(0), "refId": .string("a")])],
            assets: [.object(["id": .string("a"), "layers": .array([layer(["ty": .int(0), "refId": .string("b")])])]),
                     .object(["id": .string("b"), "layers": .array([layer(["ty": .int(0), "refId": .string("a")])])])]),
         "precomposition 'a' contains itself"),
        ("a star of 10^9 points", document([shapeLayer([group([.object(["ty": .string("sr"), "sy": .int(1), "pt": value(.int(1_000_000_000)),
                                                                       "p": value(pair(50, 50)), "or": value(.int(40)), "ir": value(.int(20))]), fill])])]),
         "a star or polygon has 1000000000 points (at most 1000)"),
        ("an external image no layer uses", document([shapeLayer([group([rectangle(), fill])])],
                                                     assets: [image("unused", ["u": .string("/etc/"), "p": .string("passwd")])]),
         "image asset 'unused' refers to '/etc/passwd' instead of embedding it"),
        ("a data: URI without \"e\": 1, which rlottie opens as a path", document([layer(["ty": .int(2), "refId": .string("img")])],
            assets: [image("img", ["p": .string(pngHeader(width: 4, height: 4))])]), "image asset 'img' refers to 'data:image/png;base64,"),
        ("a PNG claiming 2^32 - 1 pixels a side", document([layer(["ty": .int(2), "refId": .string("img")])],
            assets: [image("img", ["p": .string(pngHeader(width: .max, height: .max)), "e": .int(1)])]),
         "embedded images decode to 1.84e+19 pixels"),
        // What libFuzzer found: rlottie's stroker never returned (the check's 15 s of CPU ran out).
        ("a stroke 507.875 wide in a layer scaled 8,066.875 %", document([shapeLayer([rectangle(1), stroke(507.875)], ["ks": scaling(8066.875)])], width: 100, height: 100),
         "a stroke is 40970 pixels wide after the scales on it (at most 4096)"),
        ("a stroke 50 wide in a precomposition, through a layer and its parent each scaled 1,000 %", document(
            [layer(["ty": .int(3), "ind": .int(1), "ks": scaling(1000)]), layer(["ty": .int(0), "ind": .int(2), "parent": .int(1), "refId": .string("p"), "ks": scaling(1000)])],
            assets: [.object(["id": .string("p"), "layers": .array([shapeLayer([group([rectangle(), stroke(50)])])])])]),
         "a stroke is 5000 pixels wide after the scales on it"),
        ("a stroke 4 wide repeated 20 times, each copy scaled 150 % more", document([shapeLayer([group([rectangle(), stroke(4), repeater(20, scale: 150)])])]),
         "a stroke is 8867 pixels wide after the scales on it"),
        ("10^9 frames", document([shapeLayer([group([rectangle(), fill])])], op: 1_000_000_000), "is 10^9 frames or more after in point 0"),
        ("an embedded GIF", document([layer(["ty": .int(2), "refId": .string("img")])],
            assets: [image("img", ["p": .string("data:image/gif;base64," + Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).base64EncodedString()), "e": .int(1)])]),
         "embedded image 'img' is neither PNG nor JPEG"),
        ("\"assets\" twice, the first hiding an external image", Array(
            #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":64,"h":64,"assets":[{"id":"x","u":"/etc/","p":"passwd"}],"assets":[],"layers":[{"ty":3,"ks":{}}]}"#.utf8),
         #"key "assets" appears twice in one object"#),
    ]

    @Test(arguments: hostile.indices)
    func hostileDocumentsAreRefusedByWhatTheyCost(_ index: Int) async {
        let (name, bytes, problem) = Self.hostile[index]
        // In this process: each is refused before rlottie sees it, which is what is checked.
        let report = await LottieRenderer().check(bytes, limits: SplashAssetLimits())
        #expect(!report.isValid, "\(name)")
        #expect(report.problems.contains { $0.contains(problem) }, "\(name): \(report.problems)")
        #expect(report.renderedFrames == nil, "\(name): rlottie never drew it")
    }

    @Test func theCostIsCountedNotGuessed() throws {
        // A repeater repeats what comes before it in its group: 3 x (5 + 1) + 1 = 19 shapes.
        let bytes = Self.document([Self.shapeLayer([Self.group([Self.group([Self.rectangle(), Self.repeater(5)]), Self.rectangle(), Self.fill, Self.repeater(3)]),
                                                    Self.rectangle()])])
        let inspection = LottieInspection(try JSONParser.parse(bytes: bytes))
        #expect(inspection.problems.isEmpty, "\(inspection.problems)")
        #expect(inspection.cost?.shapes == 19)
        #expect(inspection.cost?.layers == 1)
        // A precomposition referenced 3 times, holding 2 layers with a mask each: 1 + 3 x 3 layers, 6 buffers.
        let nested = Self.document((1...3).map { Self.layer(["ty": .int(0), "refId": .string("p"), "ind": .int($0)]) }, assets: [
            .object(["id": .string("p"), "layers": .array([
                Self.layer(["ty": .int(0), "refId": .string("leaf")]),
                Self.shapeLayer([Self.group([Self.rectangle(), Self.fill])], index: 2, ["masksProperties": .array([.object(["mode": .string("a")])])]),
            ])]),
            .object(["id": .string("leaf"), "layers": .array([Self.shapeLayer([Self.group([Self.rectangle(), Self.fill])], ["masksProperties": .array([.object(["mode": .string("a")])])])])]),
        ])
        let cost = LottieInspection(try JSONParser.parse(bytes: nested)).cost
        #expect(cost?.layers == 12)
        #expect(cost?.buffers == 6)
        #expect(cost?.shapes == 6)
        // A stroke 10 wide in a group scaled 200 %, after a repeater of 3 copies at 110 % (the last
        // copy 1.1^2), in a layer scaled 300 % whose parent is scaled 50 %: 10 x 2 x 1.21 x 3 x 0.5.
        let stroked = Self.document([Self.layer(["ty": .int(3), "ind": .int(7), "ks": Self.scaling(50)]),
                                     Self.shapeLayer([.object(["ty": .string("gr"), "it": .array([Self.rectangle(), Self.stroke(10), Self.repeater(3, scale: 110),
                                                                                                   Self.scaling(200, "tr")])])],
                                                     index: 8, ["ks": Self.scaling(300), "parent": .int(7)])])
        let widest = try #require(LottieInspection(try JSONParser.parse(bytes: stroked)).cost?.strokeWidth)
        #expect(abs(widest - 36.3) < 1e-9, "\(widest)")
    }

    @Test func framesAreCountedAsRlottieCountsThem() async throws {
        // 0.3 to 30.9 is 30.6 frames: rlottie draws 30.
        var fields = LottieRendererTests.documentFields { _ in }
        fields["ip"] = .double(0.3)
        fields["op"] = .double(30.9)
        let report = await LottieRenderer().check(Array(JSONWriter.compact(.object(fields)).utf8), limits: SplashAssetLimits())
        #expect(report.isValid && report.frames == 30 && report.renderedFrames == 30 && report.drewEveryFrame, "\(report)")
    }

    @Test func anEmbeddedPNGAndJPEGAreMeasuredFromTheirHeaders() throws {
        let png = Self.document([Self.layer(["ty": .int(2), "refId": .string("img")])],
                                assets: [Self.image("img", ["p": .string(Self.pngHeader(width: 300, height: 200)), "e": .int(1)])])
        #expect(LottieInspection(try JSONParser.parse(bytes: png)).cost?.imagePixels == 60_000)
        // SOI, an APP0 segment to skip, then SOF2 (progressive) with height 1000 and width 3000.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x03, 0xE8, 0x0B, 0xB8, 0x01, 0x01, 0x11, 0x00]
        let withJPEG = Self.document([Self.layer(["ty": .int(2), "refId": .string("img")])],
                                     assets: [Self.image("img", ["p": .string("data:image/jpeg;base64," + Data(jpeg).base64EncodedString()), "e": .int(1)])])
        let inspection = LottieInspection(try JSONParser.parse(bytes: withJPEG))
        #expect(inspection.cost?.imagePixels == 3_000_000)
        #expect(inspection.problems.isEmpty, "\(inspection.problems)")
    }
}
