import OrderedCollections
import ReelCore

/// The hostile documents found by hand before the bounds were written (each a crash, a hang or
/// gigabytes in rlottie), as small generators of their JSON.
enum HandCases {
    static func value(_ k: JSONValue) -> JSONValue { .object(["a": .int(0), "k": k]) }
    static func pair(_ x: Int, _ y: Int) -> JSONValue { .array([.int(x), .int(y)]) }
    static let transform: JSONValue = .object(["ty": .string("tr"), "p": value(pair(0, 0)), "a": value(pair(0, 0)),
                                               "s": value(pair(100, 100)), "r": value(.int(0)), "o": value(.int(100))])
    static func rectangle(_ side: Int = 20) -> JSONValue {
        .object(["ty": .string("rc"), "p": value(pair(side / 2, side / 2)), "s": value(pair(side, side)), "r": value(.int(0))])
    }
    static let fill: JSONValue = .object(["ty": .string("fl"), "c": value(.array([.int(1), .int(0), .int(0), .int(1)])), "o": value(.int(100))])
    static func repeater(_ copies: Int) -> JSONValue {
        .object(["ty": .string("rp"), "c": value(.int(copies)), "o": value(.int(0)), "m": .int(1),
                 "tr": .object(["ty": .string("tr"), "p": value(pair(1, 0)), "a": value(pair(0, 0)), "s": value(pair(100, 100)),
                                "r": value(.int(0)), "so": value(.int(100)), "eo": value(.int(100))])])
    }
    static func shapeLayer(_ shapes: [JSONValue], index: Int = 1, extra: OrderedDictionary<String, JSONValue> = [:]) -> JSONValue {
        var fields: OrderedDictionary<String, JSONValue> = ["ty": .int(4), "ind": .int(index), "ip": .int(0), "op": .int(30), "st": .int(0),
                                                            "ks": .object([:]), "shapes": .array(shapes)]
        for (key, value) in extra { fields[key] = value }
        return .object(fields)
    }
    static func document(_ layers: [JSONValue], width: Int = 512, height: Int = 512, assets: [JSONValue] = [], op: Int = 30) -> String {
        JSONWriter.compact(.object(["v": .string("5.7.0"), "fr": .int(30), "ip": .int(0), "op": .int(op), "w": .int(width), "h": .int(height),
                                    "assets": .array(assets), "layers": .array(layers)]))
    }

    static var nestedRepeaters: String {
        let inner: JSONValue = .object(["ty": .string("gr"), "it": .array([rectangle(), fill, repeater(1000), transform])])
        let middle: JSONValue = .object(["ty": .string("gr"), "it": .array([inner, repeater(1000), transform])])
        let outer: JSONValue = .object(["ty": .string("gr"), "it": .array([middle, repeater(1000), transform])])
        return document([shapeLayer([outer])])
    }

    static var negativeDash: String {
        let stroke: JSONValue = .object(["ty": .string("st"), "c": value(.array([.int(0), .int(0), .int(0), .int(1)])), "o": value(.int(100)),
                                         "w": value(.int(2)), "lc": .int(1), "lj": .int(1),
                                         "d": .array([.object(["n": .string("d"), "v": value(.int(-1))]), .object(["n": .string("g"), "v": value(.int(-1))])])])
        let ellipse: JSONValue = .object(["ty": .string("el"), "p": value(pair(256, 256)), "s": value(pair(400, 400))])
        return document([shapeLayer([.object(["ty": .string("gr"), "it": .array([ellipse, stroke, transform])])])])
    }

    static var precompositions: String {
        func reference(_ id: String, _ index: Int) -> JSONValue {
            .object(["ty": .int(0), "refId": .string(id), "ind": .int(index), "ip": .int(0), "op": .int(30), "st": .int(0), "ks": .object([:]),
                     "w": .int(512), "h": .int(512)])
        }
        var assets: [JSONValue] = (0..<9).map { level in
            .object(["id": .string("c\(level)"), "layers": .array((1...10).map { reference("c\(level + 1)", $0) })])
        }
        assets.append(.object(["id": .string("c9"), "layers": .array([shapeLayer([.object(["ty": .string("gr"), "it": .array([rectangle(), fill, transform])])])])]))
        return document([reference("c0", 1)], assets: assets)
    }

    static var mattes: String {
        let box: JSONValue = .object(["ty": .string("gr"), "it": .array([rectangle(), fill, transform])])
        let layers = (0..<1000).flatMap { pair in
            [shapeLayer([box], index: 2 * pair + 1, extra: ["td": .int(1)]), shapeLayer([box], index: 2 * pair + 2, extra: ["tt": .int(1)])]
        }
        return document(layers, width: 2048, height: 2048)
    }

    static var hugePNG: String {
        let data = TinyImage.pngHeader(width: 12_000, height: 12_000)
        let image: JSONValue = .object(["id": .string("img"), "w": .int(12_000), "h": .int(12_000), "u": .string(""),
                                        "p": .string("data:image/png;base64," + TinyImage.base64(data)), "e": .int(1)])
        return document([.object(["ty": .int(2), "refId": .string("img"), "ind": .int(1), "ip": .int(0), "op": .int(30), "st": .int(0),
                                  "ks": .object([:])])], assets: [image])
    }

    static var solids: String {
        document((1...10_000).map { index in
            .object(["ty": .int(1), "sc": .string("#ff0000"), "sw": .int(540), "sh": .int(960), "ind": .int(index), "ip": .int(0),
                     "op": .int(90), "st": .int(0), "ks": .object([:])])
        }, width: 540, height: 960, op: 90)
    }
}
