import OrderedCollections
import ReelCore

/// Lottie documents made from fuzz bytes, structure first: layers of every type, precompositions
/// referencing each other (cycles and missing ones included), groups nesting repeaters, strokes
/// with dashes, mattes and masks, solids, embedded and external images, and the numbers that
/// break renderers (0, negatives, huge copies, tiny dashes) where they count. A byte stream
/// chooses; libFuzzer's mutations then move the structure, not the JSON syntax.
///
/// Canvases stay small (at most 128 pixels a side but for the ones refused outright) and
/// animations short, so a document within Reel's bounds draws in milliseconds and a slow one is a
/// finding, not the canvas's size.
public enum LottieGenerator {
    /// The document `bytes` choose, as JSON text.
    public static func document(_ bytes: [UInt8]) -> [UInt8] {
        var generator = Generator(input: FuzzBytes(bytes))
        return Array(generator.document().utf8)
    }

    /// The hand-made hostile documents Reel's bounds were measured against: three nested
    /// repeaters of 1,000 copies, a dash and a gap of -1, precompositions referencing the next
    /// ten times over nine levels, 1,000 mattes of 2048x2048, an embedded 12000x12000 PNG, and
    /// 10,000 full-canvas solids.
    public static var handCases: [(name: String, json: String)] {[
        ("nested-repeaters", HandCases.nestedRepeaters),
        ("negative-dash", HandCases.negativeDash),
        ("precompositions-10x9", HandCases.precompositions),
        ("mattes-1000", HandCases.mattes),
        ("png-12000", HandCases.hugePNG),
        ("solids-10000", HandCases.solids),
    ]}
}

/// The choices, in the order the bytes make them.
struct Generator {
    var input: FuzzBytes
    private var layerCount = 0
    private var precompositions = 0
    private var images = 0
    /// This document may hold what is refused outright (text and unknown layers, images not
    /// embedded): one document in six, so the others reach rlottie.
    private var refusable = false

    init(input: FuzzBytes) {
        self.input = input
    }

    mutating func document() -> String {
        refusable = input.oneIn(6)
        precompositions = input.int(0...4)
        images = input.int(0...2)
        let side = [64, 16, 128, 100, 1, 0, -5, 5000, 100_000]
        var fields: [(String, JSONValue)] = [
            ("v", .string("5.7.0")),
            ("fr", number([30, 25, 60, 0, -1, 0.5, 1000])),
            ("ip", .int(0)),
            ("op", number([10, 5, 1, 3, 30, 0, -5, 1e9])),
            ("w", .int(input.mostlyFirst(side))),
            ("h", .int(input.mostlyFirst(side))),
        ]
        var assets: [JSONValue] = []
        for index in 0..<precompositions {
            assets.append(.object(["id": .string("c\(index)"), "layers": .array(layers())]))
        }
        for index in 0..<images { assets.append(image(index)) }
        fields.append(("assets", .array(assets)))
        fields.append(("layers", .array(layers())))
        // A key twice: a reader taking every occurrence (rlottie) sees more than one keeping the last.
        if input.oneIn(16) { fields.insert(input.bool() ? ("layers", .array(layers())) : ("assets", .array([image(9)])), at: 1) }
        if input.oneIn(32) { fields.append(fields.removeFirst()) }
        return "{" + fields.map { JSONWriter.quoted($0.0) + ":" + JSONWriter.compact($0.1) }.joined(separator: ",") + "}"
    }

    // MARK: Layers

    private mutating func layers() -> [JSONValue] {
        let count = input.oneIn(24) ? input.int(50...400) : input.int(1...5)
        return (0..<count).map { _ in layer() }
    }

    private mutating func layer() -> JSONValue {
        layerCount += 1
        // Text (5) and unknown types are refused outright: rarely, so the rest gets drawn.
        let type = refusable && input.oneIn(4) ? input.pick([5, 9]) : input.pick([4, 4, 4, 1, 0, 0, 2, 3])
        var fields: OrderedDictionary<String, JSONValue> = [
            "ty": .int(type), "ind": .int(layerCount), "ip": .int(0), "op": number([30, 10, 0, 1e6]), "st": .int(0),
            "ks": transform(),
        ]
        if input.oneIn(6) { fields["tt"] = .int(input.int(0...5)) }
        if input.oneIn(6) { fields["td"] = .int(1) }
        if input.oneIn(8) { fields["parent"] = .int(input.int(0...(layerCount + 1))) }
        if input.oneIn(8) { fields["masksProperties"] = .array((0..<input.int(1...3)).map { _ in mask() }) }
        if input.oneIn(16) { fields["hd"] = .bool(true) }
        switch type {
        case 0:
            fields["refId"] = .string("c\(input.int(0...max(0, precompositions)))")
            fields["w"] = .int(input.pick([128, 0, 4096]))
            fields["h"] = .int(input.pick([128, 0, 4096]))
            if input.oneIn(8) { fields["tm"] = animated([0, 1, 100, -1]) }
        case 1:
            fields["sc"] = .string(input.pick(["#ff0000", "#00ff00", "", "red"]))
            fields["sw"] = number([128, 64, 0, -1, 100_000])
            fields["sh"] = number([128, 64, 0, -1, 100_000])
        case 2:
            fields["refId"] = .string("img\(input.int(0...max(0, images)))")
        case 4, 5:
            fields["shapes"] = .array(shapes(depth: 0))
        default:
            break
        }
        if input.oneIn(20) { fields[fields.keys[input.int(0...(fields.count - 1))]] = wrongType() }
        return .object(fields)
    }

    private mutating func mask() -> JSONValue {
        .object(["mode": .string(input.pick(["a", "s", "i", "f", "n", "x"])), "inv": .bool(input.bool()),
                 "pt": .object(["a": .int(0), "k": path()]), "o": value(number([100, 0, -1]))])
    }

    // MARK: Shapes

    private mutating func shapes(depth: Int) -> [JSONValue] {
        var items: [JSONValue] = []
        for _ in 0..<input.int(1...4) {
            let kind = depth < 6 ? input.pick(["gr", "rc", "el", "sr", "sh", "fl", "st", "gf", "gs", "rp", "tm", "xx"])
                                 : input.pick(["rc", "el", "fl", "st"])
            items.append(shape(kind, depth: depth))
        }
        return items
    }

    private mutating func shape(_ kind: String, depth: Int) -> JSONValue {
        var fields: OrderedDictionary<String, JSONValue> = ["ty": .string(kind)]
        switch kind {
        case "gr":
            fields["it"] = .array(shapes(depth: depth + 1) + [shapeTransform()])
        case "rc":
            fields["p"] = value(pair(64, 64))
            fields["s"] = value(.array([number([32, 128, 0, -10, 1e6]), number([32, 128, 0, 1e6])]))
            fields["r"] = value(number([0, 4, -1]))
        case "el":
            fields["p"] = value(pair(64, 64))
            fields["s"] = value(.array([number([40, 128, 0, 1e6]), number([40, 128, 0])]))
        case "sr":
            fields["sy"] = .int(input.pick([1, 2, 3]))
            fields["pt"] = animated([5, 3, 0, -1, 1000, 1001, 1e9])
            fields["p"] = value(pair(64, 64))
            fields["or"] = value(number([30, 0, -5]))
            fields["ir"] = value(number([15, 0]))
            fields["r"] = value(.int(0))
        case "sh":
            fields["ks"] = .object(["a": .int(0), "k": path()])
        case "fl":
            fields["c"] = value(.array([.double(1), .double(0.5), .int(0), .int(1)]))
            fields["o"] = value(number([100, 50, 0]))
        case "st", "gs":
            fields["c"] = value(.array([.int(0), .int(0), .int(1), .int(1)]))
            fields["o"] = value(.int(100))
            fields["w"] = value(number([2, 0, 50, -1, 1e6]))
            if kind == "gs" { fields["g"] = gradient() }
            if input.oneIn(3) {
                var dashes: [JSONValue] = []
                for name in ["d", "g", "o", "d", "g"].prefix(input.int(1...5)) {
                    dashes.append(.object(["n": .string(name), "v": input.oneIn(4) ? animated([4, 0, -1, 1e-6, 10]) : value(number([4, 2, 0, -1, 1e-6, 0.5, 1e6]))]))
                }
                fields["d"] = .array(dashes)
            }
        case "gf":
            fields["g"] = gradient()
            fields["s"] = value(pair(0, 0))
            fields["e"] = value(pair(128, 128))
            fields["t"] = .int(input.pick([1, 2]))
            fields["o"] = value(.int(100))
        case "rp":
            fields["c"] = input.oneIn(4) ? animated([3, 1000, 0]) : value(number([2, 10, 100, 1000, 1001, 0, -1, 1e6]))
            fields["o"] = value(.int(0))
            fields["m"] = .int(1)
            fields["tr"] = .object(["ty": .string("tr"), "p": value(pair(2, 0)), "a": value(pair(0, 0)), "s": value(pair(100, 100)),
                                    "r": value(number([0, 10])), "so": value(.int(100)), "eo": value(.int(100))])
        case "tm":
            fields["s"] = value(number([0, 50, -10]))
            fields["e"] = value(number([100, 50, 200]))
            fields["o"] = value(.int(0))
        default:
            break
        }
        if input.oneIn(24) { fields[fields.keys[input.int(0...(fields.count - 1))]] = wrongType() }
        return .object(fields)
    }

    private mutating func shapeTransform() -> JSONValue {
        .object(["ty": .string("tr"), "p": value(pair(0, 0)), "a": value(pair(0, 0)), "s": value(.array([number([100, 0, 1e4]), number([100, 0])])),
                 "r": value(.int(0)), "o": value(.int(100))])
    }

    private mutating func transform() -> JSONValue {
        .object(["o": value(.int(100)), "r": value(.int(0)), "p": value(pair(0, 0)), "a": value(pair(0, 0)),
                 "s": value(.array([number([100, 0, 1e6, -100]), number([100, 0])]))])
    }

    private mutating func path() -> JSONValue {
        let count = input.pick([3, 4, 0, 1, 200])
        var vertices: [JSONValue] = [], tangents: [JSONValue] = []
        for index in 0..<count {
            vertices.append(pair(index * 7 % 128, index * 13 % 128))
            tangents.append(pair(0, 0))
        }
        return .object(["c": .bool(input.bool()), "v": .array(vertices), "i": .array(input.oneIn(8) ? [] : tangents), "o": .array(tangents)])
    }

    private mutating func gradient() -> JSONValue {
        let stops = input.pick([2, 3, 0, 100, 100_000])
        let values = (0..<input.pick([8, 12, 4, 0, 3])).map { JSONValue.double(Double($0 % 4) / 4) }
        return .object(["p": .int(stops), "k": .object(["a": .int(0), "k": .array(values)])])
    }

    // MARK: Images

    private mutating func image(_ index: Int) -> JSONValue {
        let side = input.mostlyFirst([4, 16, 1, 0, 2048, 4096, 12_000])
        let data: [UInt8]
        switch input.mostlyFirst([0, 1, 2, 3]) {
        case 0: data = side > 0 && side <= 16 ? TinyImage.png(width: side, height: side) : TinyImage.pngHeader(width: side, height: side)
        case 1: data = TinyImage.jpegHeader(width: side, height: side)
        case 2: data = Array("GIF89a".utf8) + [UInt8(side & 0xFF), UInt8(side >> 8), 1, 0]
        default: data = TinyImage.pngHeader(width: side, height: input.pick([1, 100_000]))
        }
        var fields: OrderedDictionary<String, JSONValue> = ["id": .string("img\(index)"), "w": .int(side), "h": .int(side)]
        switch refusable ? input.int(0...4) : 0 {
        case 0, 1:
            fields["u"] = .string("")
            fields["p"] = .string("data:image/png;base64," + TinyImage.base64(data))
            fields["e"] = .int(1)
        case 2:
            // A data: URI without "e": 1: rlottie opens it as a path.
            fields["u"] = .string("")
            fields["p"] = .string("data:image/png;base64," + TinyImage.base64(data))
        case 3:
            fields["u"] = .string("/nonexistent/")
            fields["p"] = .string("image.png")
            fields["e"] = .int(input.int(0...1))
        default:
            fields["p"] = .string("data:image/png;base64,!!not base64!!")
            fields["e"] = .int(1)
        }
        return .object(fields)
    }

    // MARK: Values

    private mutating func number(_ options: [Double]) -> JSONValue {
        let chosen = input.oneIn(16) ? Double(input.int(-1000...100_000)) / 8 : input.mostlyFirst(options)
        return chosen == chosen.rounded() && abs(chosen) < 1e15 ? .int(Int(chosen)) : .double(chosen)
    }

    private func pair(_ x: Int, _ y: Int) -> JSONValue { .array([.int(x), .int(y)]) }

    private func value(_ k: JSONValue) -> JSONValue { .object(["a": .int(0), "k": k]) }

    /// An animated property: keyframes at frames 0 and 10 between two of `options`.
    private mutating func animated(_ options: [Double]) -> JSONValue {
        let start = number(options), end = number(options)
        return .object(["a": .int(1), "k": .array([
            .object(["t": .int(0), "s": .array([start]), "e": .array([end]),
                     "i": .object(["x": .array([.double(0.5)]), "y": .array([.double(0.5)])]),
                     "o": .object(["x": .array([.double(0.5)]), "y": .array([.double(0.5)])])]),
            .object(["t": .int(10), "s": .array([end])]),
        ])])
    }

    /// A value of a type the field does not take.
    private mutating func wrongType() -> JSONValue {
        input.pick([.null, .string("x"), .bool(true), .array([]), .object([:]), .double(-1e300)])
    }
}
