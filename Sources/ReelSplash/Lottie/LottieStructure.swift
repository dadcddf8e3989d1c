import Foundation
import OrderedCollections
import ReelCore

/// The walk over a Lottie document's layers and assets behind `LottieInspection`: the problems
/// that would make rlottie draw nothing, read files, or run unbounded, and what a frame costs.
///
/// rlottie loads every asset (decoding every image) and parses every precomposition, referenced
/// or not, so each is checked once; costs count what the root composition draws, a
/// precomposition once per layer referencing it. A repeater repeats the items before it in its
/// group, so an item's copies are the product of the repeaters after it, up through its groups;
/// a stroke's width is scaled by its groups' transforms, the repeaters after it (once per copy),
/// its layer's and parents' transforms, and those of the layers referencing its precomposition.
struct LottieStructure {
    private(set) var problems: [String] = []
    private(set) var cost = LottieCost()

    private let canvasPixels: Double
    private var images: [String: EmbeddedImage] = [:]
    private var compositions: [String: [JSONValue]] = [:]
    /// Each composition's own cost and the precompositions its layers reference (once per layer).
    private var own: [String: (cost: LottieCost, references: [(id: String, scale: Double)])] = [:]
    private var expanded: [String: LottieCost] = [:]
    private var tally = ProblemTally()

    /// The id of the root composition among the precompositions' ids (which are the document's).
    private static let root = "\u{0}root"

    init(root: OrderedDictionary<String, JSONValue>, canvasPixels: Int) {
        self.canvasPixels = Double(max(1, canvasPixels))
        for asset in root["assets"]?.array ?? [] {
            guard case .object(let fields) = asset else { continue }
            let id = fields["id"].flatMap(Self.identifier)
            if fields["p"] != nil { checkImage(fields, id: id ?? "?") }
            if let id, case .array(let layers)? = fields["layers"] { compositions[id] = layers }
        }
        compositions[Self.root] = root["layers"]?.array ?? []
        for (id, layers) in compositions.sorted(by: { $0.key < $1.key }) {
            own[id] = ownCost(of: layers)
        }
        var visiting: Set<String> = []
        cost += total(Self.root, depth: 0, visiting: &visiting)
        cost.imagePixels = images.values.reduce(0) { $0 + $1.pixels }
        problems = tally.problems
    }

    // MARK: Assets

    /// An image asset must be embedded: `"e": 1` and a base64 `data:` URI of a PNG or JPEG.
    /// Anything else makes rlottie open the path `u` + `p` names (a data: URI without `"e": 1`
    /// included).
    private mutating func checkImage(_ fields: OrderedDictionary<String, JSONValue>, id: String) {
        let path = fields["p"]?.string ?? JSONWriter.compact(fields["p"] ?? .null)
        guard fields["e"] == .int(1), path.hasPrefix("data:") else {
            let location = (fields["u"]?.string ?? "") + path
            tally.add("external image", "image asset '\(Self.clip(id))' refers to '\(Self.clip(location))' instead of embedding it (\"e\": 1 and a data: URI): rlottie would read it from disk or the network")
            return
        }
        switch EmbeddedImage.measure(dataURI: path) {
        case .success(let image):
            images[id] = image
        case .failure(let problem):
            tally.add("image format", "embedded image '\(Self.clip(id))' \(problem.text)")
        }
    }

    // MARK: Layers

    /// One composition's layers: what they draw themselves, and the precompositions they name.
    private mutating func ownCost(of layers: [JSONValue]) -> (cost: LottieCost, references: [(id: String, scale: Double)]) {
        var cost = LottieCost()
        var references: [(id: String, scale: Double)] = []
        let scales = Self.layerScales(layers)
        for (position, layer) in layers.enumerated() {
            guard case .object(let fields) = layer else {
                tally.add("layer", "a layer is \(layer.kindDescription), not an object")
                continue
            }
            let name = Self.name(fields)
            guard let type = fields["ty"].flatMap(Self.integer) else {
                tally.add("layer", "layer \(name) has no type (\"ty\")")
                continue
            }
            if type == 5 {
                tally.add("text layer", "layer \(name) is a text layer (ty 5): rlottie draws no text")
                continue
            }
            guard LottieLimits.drawnLayerTypes.contains(type) else {
                tally.add("layer type", "layer \(name) has type \(type), which rlottie does not draw")
                continue
            }
            cost.layers += 1
            if let matte = fields["tt"].flatMap(Self.integer), matte != 0 { cost.buffers += 1 }
            if fields["td"].flatMap(Self.integer).map({ $0 != 0 }) ?? false { cost.buffers += 1 }
            cost.buffers += Double(fields["masksProperties"]?.array?.count ?? 0)
            switch type {
            case 0:
                if let reference = fields["refId"].flatMap(Self.identifier) { references.append((reference, scales[position])) }
            case 1:
                let area = (fields["sw"]?.number ?? .infinity) * (fields["sh"]?.number ?? .infinity)
                cost.paintedCanvases += paintedCanvases(area)
            case 2:
                let image = fields["refId"].flatMap(Self.identifier).flatMap { images[$0] }
                cost.paintedCanvases += paintedCanvases(image?.pixels ?? .infinity)
            case 4:
                addShapes(fields["shapes"]?.array ?? [], copies: 1, scale: scales[position], to: &cost)
            default:
                break
            }
        }
        return (cost, references)
    }

    /// A solid's or image's area in canvases, at most one (anything that is not a positive area,
    /// a missing size included, counts as one).
    private func paintedCanvases(_ area: Double) -> Double {
        guard area.isFinite, area >= 0 else { return 1 }
        return min(area, canvasPixels) / canvasPixels
    }

    /// Adds the shapes `items` draw (a layer's `shapes` or a group's `it`), each `copies` times,
    /// and their strokes' widths, scaled by `scale` and the group's own transform.
    private mutating func addShapes(_ items: [JSONValue], copies: Double, scale: Double, to cost: inout LottieCost) {
        var factor = copies
        // rlottie applies a group's last transform item to everything in the group.
        var stretch = scale * Self.scale(of: items.last { $0["ty"]?.string == "tr" })
        for item in items.reversed() {
            guard case .object(let fields) = item else { continue }
            switch fields["ty"]?.string {
            case "rp":
                let most = Self.values(fields["c"]).max() ?? 1
                if most > Double(LottieLimits.maxRepeaterCopies) {
                    tally.add("repeater", "a repeater makes \(JSONWriter.number(most)) copies (at most \(LottieLimits.maxRepeaterCopies))")
                }
                let repeats = most.isFinite ? max(1, most.rounded(.up)) : Double(LottieLimits.maxRepeaterCopies) + 1
                factor *= repeats
                // Copy n is drawn through the repeater's transform n times.
                stretch *= pow(max(1, Self.scale(of: fields["tr"])), min(repeats, Double(LottieLimits.maxRepeaterCopies) + 1) - 1)
            case "gr":
                addShapes(fields["it"]?.array ?? [], copies: factor, scale: stretch, to: &cost)
            case "rc", "el", "sh":
                cost.shapes += factor
            case "sr":
                cost.shapes += factor
                let points = Self.values(fields["pt"]).max() ?? 0
                if !(points <= Double(LottieLimits.maxStarPoints)) {
                    tally.add("star", "a star or polygon has \(JSONWriter.number(points)) points (at most \(LottieLimits.maxStarPoints))")
                }
            case "st", "gs":
                checkDashes(fields)
                let width = Self.values(fields["w"]).map(abs).max() ?? 0
                cost.strokeWidth = max(cost.strokeWidth, width * stretch)
            default:
                break
            }
        }
    }

    /// The most `layers`' transforms scale what each draws: its own `ks` and its parents', up the
    /// `parent` chain (a cycle, which rlottie does not draw, ends it); each layer walked once.
    private static func layerScales(_ layers: [JSONValue]) -> [Double] {
        var positions: [Int: Int] = [:]
        for (position, layer) in layers.enumerated() {
            if let index = layer["ind"].flatMap(integer), positions[index] == nil { positions[index] = position }
        }
        var scales: [Double?] = Array(repeating: nil, count: layers.count)
        for start in layers.indices where scales[start] == nil {
            // Up the chain to a layer already known, a root or a cycle; then down, multiplying.
            var chain: [Int] = []
            var onChain: Set<Int> = []
            var current: Int? = start
            while let position = current, scales[position] == nil, onChain.insert(position).inserted {
                chain.append(position)
                current = layers[position]["parent"].flatMap(integer).flatMap { positions[$0] }
            }
            var above = current.flatMap { scales[$0] } ?? 1
            for position in chain.reversed() {
                above *= scale(of: layers[position]["ks"])
                scales[position] = above
            }
        }
        return scales.map { $0 ?? 1 }
    }

    /// The most a transform (a layer's `ks`, a group's or a repeater's `tr`) stretches what it
    /// holds: its largest scale (`s`, in percent) times its skew's stretch (`sk`, in degrees).
    static func scale(of transform: JSONValue?) -> Double {
        guard let transform else { return 1 }
        let scale = values(transform["s"]).map(abs).max().map { $0 / 100 } ?? 1
        let skew = values(transform["sk"]).map { 1 + abs(tan($0 * .pi / 180)) }.max() ?? 1
        return scale * skew
    }

    /// rlottie draws a dashed stroke dash by dash, and loops forever or fills memory on a dash or
    /// gap of 0 or less. It reads the entries' values in order whatever their names (`n`): dash
    /// and gap pairs, the last of an odd count the offset; an offset (`"o"`) anywhere else is one
    /// of the pairs' lengths.
    private mutating func checkDashes(_ fields: OrderedDictionary<String, JSONValue>) {
        let entries = (fields["d"]?.array ?? []).filter { $0["v"] != nil }
        let lengths = entries.count.isMultiple(of: 2) ? entries[...] : entries.dropLast()
        for (position, entry) in lengths.enumerated() {
            let what = position.isMultiple(of: 2) ? "dash" : "gap"
            let values = Self.values(entry["v"])
            let read = entry["n"]?.string == "o" ? " (an offset before the last entry, which rlottie reads as a \(what))" : ""
            if values.isEmpty {
                tally.add("dash", "stroke \(Self.name(fields)) has a \(what) without a number\(read)")
            } else if let bad = values.first(where: { !($0 > 0 && $0.isFinite) }) {
                tally.add("dash", "stroke \(Self.name(fields)) has a \(what) of \(JSONWriter.number(bad))\(read): dashes and gaps must be more than 0")
            }
        }
    }

    // MARK: Precompositions

    /// The cost of composition `id` with its precompositions expanded, each reference counted.
    private mutating func total(_ id: String, depth: Int, visiting: inout Set<String>) -> LottieCost {
        if let known = expanded[id] { return known }
        guard let (base, references) = own[id] else { return LottieCost() }
        var cost = base
        visiting.insert(id)
        for reference in references {
            guard own[reference.id] != nil else { continue }
            if visiting.contains(reference.id) {
                tally.add("cycle", "precomposition '\(Self.clip(reference.id))' contains itself")
                continue
            }
            if depth >= LottieLimits.maxPrecompositionDepth {
                tally.add("depth", "precompositions nest more than \(LottieLimits.maxPrecompositionDepth) levels deep")
                continue
            }
            cost += total(reference.id, depth: depth + 1, visiting: &visiting).scaled(by: reference.scale)
        }
        visiting.remove(id)
        expanded[id] = cost
        return cost
    }

    // MARK: Values

    /// The numbers a property takes: its static value (`"k": 5` or `[5, 6]`), or every
    /// keyframe's start and end (`"s"`, `"e"`); not the keyframes' times or easing.
    static func values(_ property: JSONValue?) -> [Double] {
        guard let value = property?["k"] else { return property?.number.map { [$0] } ?? [] }
        func numbers(_ value: JSONValue?) -> [Double] {
            switch value {
            case .int?, .double?: return [value!.number!]
            case .array(let elements)?: return elements.compactMap(\.number)
            default: return []
            }
        }
        if case .array(let elements) = value, elements.contains(where: { $0.object != nil }) {
            return elements.flatMap { numbers($0["s"]) + numbers($0["e"]) }
        }
        return numbers(value)
    }

    static func integer(_ value: JSONValue) -> Int? {
        guard let number = value.number, number.isFinite, number == number.rounded(), abs(number) < 1e9 else { return nil }
        return Int(number)
    }

    static func identifier(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: nil
        }
    }

    /// 'name', #index, or "without a name", for messages.
    static func name(_ fields: OrderedDictionary<String, JSONValue>) -> String {
        if let name = fields["nm"]?.string { return "'\(clip(name))'" }
        if let index = fields["ind"] { return "#" + clip(JSONWriter.compact(index)) }
        return "without a name"
    }

    /// Text from the document as a message shows it: control characters escaped, at most 80
    /// characters.
    static func clip(_ text: String) -> String {
        let shown = LaunchText.escaped(text)
        return shown.count <= 80 ? shown : String(shown.prefix(77)) + "..."
    }
}

/// Problems counted by kind, so a document with 10,000 broken strokes gives one line, not 10,000:
/// the first of each kind, with how many more there were.
struct ProblemTally {
    private var first: OrderedDictionary<String, String> = [:]
    private var counts: [String: Int] = [:]

    mutating func add(_ kind: String, _ message: String) {
        if first[kind] == nil { first[kind] = message }
        counts[kind, default: 0] += 1
    }

    var problems: [String] {
        first.map { kind, message in
            let more = (counts[kind] ?? 1) - 1
            return more > 0 ? "\(message) (and \(more) more like it)" : message
        }
    }
}
