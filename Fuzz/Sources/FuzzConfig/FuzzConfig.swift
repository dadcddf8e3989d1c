import FuzzSupport
import Foundation
import ReelCore

/// Configuration layers: the bytes as a `--config` JSON text, and their lines as `--set`
/// assignments, through `ConfigResolver` (layering, validation, decoding into `ReelConfig`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let resolver = ConfigResolver()
    FuzzCheck.onlyReelErrors {
        _ = try resolver.resolve([.json(text, name: "fuzz")])
    }
    FuzzCheck.onlyReelErrors {
        _ = try resolver.resolve([.assignments(text.split(separator: "\n").map(String.init))])
    }
    return 0
}
