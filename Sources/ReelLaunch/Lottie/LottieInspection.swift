import OrderedCollections
import ReelCore

/// What Reel reads from a Lottie document (JSON, already parsed) before handing it to rlottie:
/// the canvas, frame rate and frame range, and every structural problem that would make
/// rlottie draw nothing, read local files, or run unbounded.
///
/// Checked: a top-level object with `fr` > 0, `ip` < `op`, integer `w` and `h` within
/// `LottieLimits`, a non-empty `layers` array; every layer (also in precompositions) an object
/// whose `ty` rlottie draws (text layers, `ty` 5, are refused: rlottie draws no text), image
/// layers naming embedded (`data:`) images only (rlottie would read any other path from disk),
/// repeaters of at most `LottieLimits.maxRepeaterCopies` copies.
public struct LottieInspection: Sendable, Hashable {
    public var frameRate: Double?
    public var inPoint: Double?
    public var outPoint: Double?
    public var width: Int?
    public var height: Int?
    public var problems: [String] = []

    /// Frames from `ip` to `op`, as rlottie counts them.
    public var frames: Int? {
        guard let inPoint, let outPoint, outPoint > inPoint else { return nil }
        return Int((outPoint - inPoint).rounded())
    }

    /// How long one pass lasts: frames / frame rate.
    public var seconds: Double? {
        guard let frames, let frameRate, frameRate > 0 else { return nil }
        return Double(frames) / frameRate
    }

    public init(_ document: JSONValue) {
        guard case .object(let root) = document else {
            problems.append("not a Lottie animation: the document is \(document.kindDescription), not an object")
            return
        }
        frameRate = root["fr"]?.number
        inPoint = root["ip"]?.number
        outPoint = root["op"]?.number
        width = root["w"].flatMap(Self.integer)
        height = root["h"].flatMap(Self.integer)
        if root["layers"] == nil && root["fr"] == nil {
            problems.append("not a Lottie animation: no \"fr\" and no \"layers\"")
            return
        }
        if let frameRate {
            if !(frameRate > 0 && frameRate.isFinite) { problems.append("frame rate \(JSONWriter.number(frameRate)) is not positive") }
        } else {
            problems.append("no frame rate (\"fr\")")
        }
        if let inPoint, let outPoint {
            if !(outPoint > inPoint && inPoint.isFinite && outPoint.isFinite) {
                problems.append("out point \(JSONWriter.number(outPoint)) is not after in point \(JSONWriter.number(inPoint))")
            }
        } else {
            problems.append("no in and out points (\"ip\", \"op\")")
        }
        if let width, let height {
            if !(1...LottieLimits.maxSide).contains(width) || !(1...LottieLimits.maxSide).contains(height) {
                problems.append("canvas \(width)x\(height) is outside 1...\(LottieLimits.maxSide) pixels a side")
            } else if width * height > LottieLimits.maxPixels {
                problems.append("canvas \(width)x\(height) is larger than \(LottieLimits.maxPixels) pixels")
            }
        } else {
            problems.append("no canvas size (integer \"w\" and \"h\")")
        }
        var images: [String: JSONValue] = [:]
        var precompositions: [JSONValue] = []
        for asset in root["assets"]?.array ?? [] {
            guard let id = asset["id"].flatMap(Self.identifier) else { continue }
            if asset["layers"] != nil { precompositions.append(asset) } else { images[id] = asset }
        }
        guard case .array(let layers)? = root["layers"], !layers.isEmpty else {
            problems.append("no layers (a non-empty \"layers\" array)")
            return
        }
        checkLayers(layers, images: images)
        for precomposition in precompositions {
            checkLayers(precomposition["layers"]?.array ?? [], images: images)
        }
        checkRepeaters(document)
    }

    private mutating func checkLayers(_ layers: [JSONValue], images: [String: JSONValue]) {
        for layer in layers {
            guard case .object(let fields) = layer else {
                problems.append("a layer is \(layer.kindDescription), not an object")
                continue
            }
            let name = fields["nm"]?.string.map { "'\($0)'" } ?? (fields["ind"].map { "#\(JSONWriter.compact($0))" } ?? "without a name")
            guard let type = fields["ty"].flatMap(Self.integer) else {
                problems.append("layer \(name) has no type (\"ty\")")
                continue
            }
            if type == 5 {
                problems.append("layer \(name) is a text layer (ty 5): rlottie draws no text")
            } else if !LottieLimits.drawnLayerTypes.contains(type) {
                problems.append("layer \(name) has type \(type), which rlottie does not draw")
            } else if type == 2 {
                let reference = fields["refId"]?.string ?? ""
                let path = images[reference]?["p"]?.string ?? ""
                if !path.hasPrefix("data:") {
                    problems.append("image layer \(name) names an external image '\(path)': only embedded (data:) images are drawn")
                }
            }
        }
    }

    /// Repeaters (`"ty": "rp"`) anywhere in the document, their copy counts bounded.
    private mutating func checkRepeaters(_ value: JSONValue) {
        switch value {
        case .object(let fields):
            if fields["ty"]?.string == "rp", let copies = fields["c"], let most = Self.largestNumber(in: copies),
               most > Double(LottieLimits.maxRepeaterCopies) {
                problems.append("a repeater makes \(JSONWriter.number(most)) copies (at most \(LottieLimits.maxRepeaterCopies))")
            }
            for child in fields.values { checkRepeaters(child) }
        case .array(let elements):
            for element in elements { checkRepeaters(element) }
        default:
            break
        }
    }

    private static func largestNumber(in value: JSONValue) -> Double? {
        switch value {
        case .int, .double: return value.number
        case .array(let elements): return elements.compactMap(largestNumber).max()
        case .object(let fields): return fields.values.compactMap(largestNumber).max()
        default: return nil
        }
    }

    private static func integer(_ value: JSONValue) -> Int? {
        guard let number = value.number, number.isFinite, number == number.rounded(), abs(number) < 1e9 else { return nil }
        return Int(number)
    }

    private static func identifier(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: nil
        }
    }
}
