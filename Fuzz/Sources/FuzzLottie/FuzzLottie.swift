import Foundation
import FuzzSupport
import LottieGenerator
import ReelCore
import ReelSplash

/// Lottie splash assets, structure-aware: the bytes choose a document (`LottieGenerator`), which
/// goes through the whole check, rlottie included, in this process, under libFuzzer's own
/// bounds (`-rss_limit_mb`, `-timeout`), the way the check's child runs under its rlimits. A trap
/// in Reel's reading, or a document within Reel's bounds that takes rlottie past libFuzzer's, is
/// a finding: the bounds missed a cost.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let document = LottieGenerator.document(Array(UnsafeBufferPointer(start: data, count: size)))
    check(document)
    return 0
}

/// Limits loose enough that most documents are drawn (fps is not what is fuzzed), and short
/// enough that one drawn within Reel's bounds fits libFuzzer's 2 s: at most 2 s of frames, each
/// stopped past 0.25 s of CPU or when the frame interval's allowance is spent.
let limits = SplashAssetLimits(maxFPS: 1000, maxSeconds: 2, maxBytes: 1 << 20)

func check(_ document: [UInt8]) {
    let report = LottieAssetCheck.run(document, limits: limits)
    guard report.bytes == document.count else { fatalError("the report counts \(report.bytes) bytes of \(document.count)") }
    if let rendered = report.renderedFrames {
        guard let cost = report.cost, cost.shapes <= Double(LottieLimits.maxShapes), cost.layers <= Double(LottieLimits.maxLayers),
              cost.imagePixels <= Double(LottieLimits.maxImagePixels), cost.paintedCanvases <= Double(LottieLimits.maxPaintedCanvases),
              cost.strokeWidth <= LottieLimits.maxStrokeWidth else {
            fatalError("rlottie drew a document past Reel's bounds: \(String(describing: report.cost))")
        }
        guard rendered >= 1, rendered <= (report.frames ?? 0) || report.frames == nil else {
            fatalError("\(rendered) frames drawn of \(String(describing: report.frames))")
        }
    }
    if report.isValid, !report.drewEveryFrame {
        fatalError("valid without drawing every frame: \(report)")
    }
}

/// Writes the hand cases and `count` generated documents (from a fixed pseudo-random stream) as
/// `hand-*.json` and `generated-*.json`.
func writeAssets(to folder: String, count: Int) -> Int32 {
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, json) in LottieGenerator.handCases {
            try Data(json.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("hand-\(name).json"))
        }
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for index in 0..<count {
            let length = 32 + Int(next() % 480)
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
            let name = String(format: "generated-%05d.json", index)
            try Data(LottieGenerator.document(bytes)).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("FuzzLottie: \(error)\n".utf8))
        return 1
    }
}
