import DynamoAPI
import Foundation

/// ISO 8601 timestamps in UTC at millisecond precision (`2023-11-14T22:13:20.123Z`), the form
/// ``ItemEncoder`` and DynamoStore write dates in.
///
/// Output rounds to the nearest millisecond (Foundation's formatter truncates, so a date made
/// from `1_700_000_000.123`, whose binary value is a hair below `.123`, printed as `.122`).
/// Reading a text with at most three fraction digits builds the date from whole milliseconds,
/// so every date at millisecond precision comes back equal to the one written. The text sorts
/// as the dates compare for the years 0000 to 9999.
///
/// Pure integer arithmetic on the proleptic Gregorian calendar: no `Calendar`, no locale.
package enum ISO8601Milliseconds {
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The date as `YYYY-MM-DDTHH:MM:SS.mmmZ`, rounded to the nearest millisecond.
    ///
    /// Dates outside the years 0000–9999 (which this form cannot sort) fall back to
    /// Foundation's ISO 8601 text.
    package static func string(from date: Date) -> String {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        guard scaled.isFinite, abs(scaled) < 3e14 else {
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        let milliseconds = Int64(scaled)
        let (days, inDay) = milliseconds.quotientAndFlooredRemainder(dividingBy: millisecondsPerDay)
        let civil = CivilDate(secondsSince1970: Double(days) * 86_400)
        let (year, month, day) = (civil.year, civil.month, civil.day)
        guard (0...9999).contains(year) else {
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        var text = ""
        text.reserveCapacity(24)
        append(Int64(year), width: 4, to: &text)
        text.append("-")
        append(Int64(month), width: 2, to: &text)
        text.append("-")
        append(Int64(day), width: 2, to: &text)
        text.append("T")
        append(inDay / 3_600_000, width: 2, to: &text)
        text.append(":")
        append(inDay / 60_000 % 60, width: 2, to: &text)
        text.append(":")
        append(inDay / 1000 % 60, width: 2, to: &text)
        text.append(".")
        append(inDay % 1000, width: 3, to: &text)
        text.append("Z")
        return text
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; other ISO 8601 spellings go to
    /// Foundation's parser. `nil` when the text is no ISO 8601 timestamp.
    package static func date(from text: String) -> Date? {
        if let date = parseExtended(Array(text.utf8)) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private static func parseExtended(_ bytes: [UInt8]) -> Date? {
        var index = 0
        func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<(index + width)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            index += width
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            expect(0x54) || expect(0x74), let hour = number(2), expect(0x3A), let minute = number(2),
            expect(0x3A), let second = number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fractionDigits: [UInt8] = []
        if expect(0x2E) || expect(0x2C) {
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fractionDigits.append(bytes[index])
                index += 1
            }
            guard !fractionDigits.isEmpty else { return nil }
        }
        var offsetMinutes: Int64 = 0
        if !(expect(0x5A) || expect(0x7A)) {
            guard index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D else { return nil }
            let sign: Int64 = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let offsetHours = number(2) else { return nil }
            _ = expect(0x3A) // `+01:00` and `+0100` both occur
            guard let minutes = number(2), offsetHours < 24, minutes < 60 else { return nil }
            offsetMinutes = sign * (offsetHours * 60 + minutes)
        }
        guard index == bytes.count else { return nil }
        let seconds =
            daysSince1970(year: year, month: month, day: day) * 86_400
            + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        if fractionDigits.count <= 3 {
            var milliseconds: Int64 = 0
            for position in 0..<3 {
                milliseconds = milliseconds * 10 + (position < fractionDigits.count ? Int64(fractionDigits[position] - 0x30) : 0)
            }
            return Date(timeIntervalSince1970: Double(seconds * 1000 + milliseconds) / 1000)
        }
        let fraction = Double("0." + String(decoding: fractionDigits, as: UTF8.self)) ?? 0
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func append(_ value: Int64, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.count < width { text.append(String(repeating: "0", count: width - digits.count)) }
        text.append(digits)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension Int64 {
    /// Quotient and remainder with the remainder in `0..<divisor` (floor division).
    fileprivate func quotientAndFlooredRemainder(dividingBy divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
