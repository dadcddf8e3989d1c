import Foundation
import ReelCore

/// Parses the ISO 8601 / RFC 3339 dates of `EXT-X-PROGRAM-DATE-TIME` and DASH
/// `availabilityStartTime` (`2016-06-22T09:20:16.166-04:00`, `...Z`, `+0000`) without a
/// formatter, so it is cheap and Sendable. A date without an offset is UTC. A day the month does
/// not have (`2026-02-30`) and an offset past 23:59 (`+99:99`) are refused, not rolled over.
public enum ISO8601Date {
    public static func parse(_ text: some StringProtocol) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<digits {
                let byte = bytes[index + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t")
            || bytes[index] == UInt8(ascii: " ")
        else { return nil }
        index += 1
        guard let hour = number(2), expect(":"), let minute = number(2), hour < 24, minute < 60 else { return nil }
        var seconds = 0.0
        if expect(":") {
            guard let whole = number(2), whole <= 60 else { return nil }
            seconds = Double(whole)
            if expect(".") || expect(",") {
                var scale = 0.1
                var digits = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    seconds += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                    digits += 1
                }
                guard digits > 0 else { return nil }
            }
        }
        var offsetSeconds = 0
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let offsetHours = number(2), offsetHours < 24 else { return nil }
                _ = expect(":")
                let offsetMinutes = number(2) ?? 0
                guard offsetMinutes < 60 else { return nil }
                offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            default:
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let epoch = Double(days * 86_400 + hour * 3600 + minute * 60 - offsetSeconds) + seconds
        return Date(timeIntervalSince1970: epoch)
    }

    /// Days in `month` of `year` (proleptic Gregorian).
    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
