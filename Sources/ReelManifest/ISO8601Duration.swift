import Foundation
import ReelCore

/// Parses xs:duration values of MPDs (`PT6S`, `PT5.972633333S`, `P0Y0M0DT0H0M16S`) into
/// seconds. Years count 365 days and months 30 days (MPDs use them only as zero).
enum ISO8601Duration {
    static func seconds(_ text: String) -> Double? {
        var bytes = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)[...]
        guard bytes.first == UInt8(ascii: "P") else { return nil }
        bytes = bytes.dropFirst()
        var total = 0.0
        var inTime = false
        var sawComponent = false
        while let first = bytes.first {
            if first == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                bytes = bytes.dropFirst()
                continue
            }
            let numberBytes = bytes.prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }
            guard !numberBytes.isEmpty, let value = Double(String(decoding: numberBytes, as: UTF8.self)) else {
                return nil
            }
            bytes = bytes.dropFirst(numberBytes.count)
            guard let unit = bytes.first else { return nil }
            bytes = bytes.dropFirst()
            switch (unit, inTime) {
            case (UInt8(ascii: "Y"), false): total += value * 365 * 86_400
            case (UInt8(ascii: "M"), false): total += value * 30 * 86_400
            case (UInt8(ascii: "W"), false): total += value * 7 * 86_400
            case (UInt8(ascii: "D"), false): total += value * 86_400
            case (UInt8(ascii: "H"), true): total += value * 3600
            case (UInt8(ascii: "M"), true): total += value * 60
            case (UInt8(ascii: "S"), true): total += value
            default: return nil
            }
            sawComponent = true
        }
        return sawComponent && total.isFinite ? total : nil
    }
}
