import FuzzSupport
import Foundation
import ReelCore

/// JSON bytes through `JSONParser` (strict, and allowing non-finite numbers); a document that
/// parses must write back (`JSONWriter`) into text that parses to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? JSONParser.parse(bytes: bytes) {
        let written = JSONWriter.compact(value)
        guard let again = try? JSONParser.parse(written) else {
            fatalError("written JSON does not parse: \(written)")
        }
        guard JSONComparison.same(value, again) else {
            fatalError("written JSON reads back differently: \(written)")
        }
        _ = JSONWriter.pretty(value)
    }
    if let value = try? JSONParser.parse(bytes: bytes, allowNonFinite: true) {
        _ = JSONWriter.compact(value)
    }
    return 0
}
