import Foundation
import OrderedCollections
import ReelCore

/// What Reel reads from a Lottie document (JSON, already parsed) before handing it to rlottie:
/// the canvas, frame rate and frame range, what drawing a frame costs, and every problem that
/// would make rlottie draw nothing, read local files, or run unbounded.
///
/// Checked: a top-level object with `fr` > 0, `ip` < `op`, integer `w` and `h` within
/// `LottieLimits`, a non-empty `layers` array; every layer (also in precompositions) an object
/// whose `ty` rlottie draws (text layers, `ty` 5, are refused: rlottie draws no text); every
/// image asset embedded (`"e": 1` and a `data:` URI of a PNG or JPEG; rlottie would read any
/// other path from disk); dashes and gaps more than 0; and the cost of a frame within
/// `LottieLimits`: shapes after nested repeaters and precomposition instances, layers after
/// expansion, matte and mask buffers, painted area, decoded image pixels, the widest stroke after
/// its scales (`LottieStructure`).
public struct LottieInspection: Sendable, Hashable {
    public var frameRate: Double?
    public var inPoint: Double?
    public var outPoint: Double?
    public var width: Int?
    public var height: Int?
    /// What a frame costs; nil when the document has no layers to count.
    public var cost: LottieCost?
    public var problems: [String] = []

    /// Frames from `ip` to `op`, as rlottie counts them (it truncates: 0.3 to 30.9 is 30 frames).
    public var frames: Int? {
        guard let inPoint, let outPoint, outPoint > inPoint, (outPoint - inPoint) < 1e9 else { return nil }
        return Int((outPoint - inPoint).rounded(.towardZero))
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
        width = root["w"].flatMap(LottieStructure.integer)
        height = root["h"].flatMap(LottieStructure.integer)
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
            } else if frames == nil {
                problems.append("out point \(JSONWriter.number(outPoint)) is 10^9 frames or more after in point \(JSONWriter.number(inPoint))")
            }
        } else {
            problems.append("no in and out points (\"ip\", \"op\")")
        }
        var canvas = 0
        if let width, let height {
            if !(1...LottieLimits.maxSide).contains(width) || !(1...LottieLimits.maxSide).contains(height) {
                problems.append("canvas \(width)x\(height) is outside 1...\(LottieLimits.maxSide) pixels a side")
            } else if width * height > LottieLimits.maxPixels {
                problems.append("canvas \(width)x\(height) is larger than \(LottieLimits.maxPixels) pixels")
            } else {
                canvas = width * height
            }
        } else {
            problems.append("no canvas size (integer \"w\" and \"h\")")
        }
        guard case .array(let layers)? = root["layers"], !layers.isEmpty else {
            problems.append("no layers (a non-empty \"layers\" array)")
            return
        }
        let structure = LottieStructure(root: root, canvasPixels: canvas > 0 ? canvas : LottieLimits.maxPixels)
        problems += structure.problems
        cost = structure.cost
        problems += Self.overLimits(structure.cost, canvasPixels: canvas > 0 ? canvas : LottieLimits.maxPixels,
                                    canvas: canvas > 0 ? "\(width ?? 0)x\(height ?? 0)" : "canvas")
    }

    /// The limits a frame's cost breaks, one line each.
    private static func overLimits(_ cost: LottieCost, canvasPixels: Int, canvas: String) -> [String] {
        var problems: [String] = []
        func count(_ value: Double) -> String {
            value < 1e15 ? String(Int(value.rounded())) : String(format: "%.3g", value)
        }
        if cost.shapes > Double(LottieLimits.maxShapes) {
            problems.append("a frame draws \(count(cost.shapes)) shapes, counting the copies of nested repeaters and precompositions (at most \(LottieLimits.maxShapes))")
        }
        if cost.layers > Double(LottieLimits.maxLayers) {
            problems.append("\(count(cost.layers)) layers, counting a precomposition's layers once for each layer referencing it (at most \(LottieLimits.maxLayers))")
        }
        let bufferBytes = cost.bufferBytes(canvasPixels: canvasPixels)
        if bufferBytes > Double(LottieLimits.maxBufferBytes) {
            problems.append("mattes and masks keep \(count(cost.buffers)) buffers of \(canvas), \(LaunchText.bytes(bufferBytes)) (at most \(LaunchText.bytes(Double(LottieLimits.maxBufferBytes))))")
        }
        if cost.paintedCanvases > Double(LottieLimits.maxPaintedCanvases) {
            problems.append("solids and images paint \(count(cost.paintedCanvases)) canvases a frame (at most \(LottieLimits.maxPaintedCanvases))")
        }
        if !(cost.strokeWidth <= LottieLimits.maxStrokeWidth) {
            problems.append("a stroke is \(count(cost.strokeWidth)) pixels wide after the scales on it (at most \(Int(LottieLimits.maxStrokeWidth)))")
        }
        if cost.imagePixels > Double(LottieLimits.maxImagePixels) {
            problems.append("embedded images decode to \(count(cost.imagePixels)) pixels, \(LaunchText.bytes(cost.imagePixels * 4)) (at most \(LottieLimits.maxImagePixels) pixels)")
        }
        return problems
    }
}
