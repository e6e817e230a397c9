import DynamoAPI
import Foundation

/// Request times as SigV4 carries them, read back into seconds since 1970.
///
/// `X-Amz-Date` (and the presigned `X-Amz-Date` parameter) is ISO 8601's basic format,
/// `20260101T000000Z`; a request that has only a `Date` header carries RFC 9110's IMF-fixdate,
/// `Thu, 01 Jan 2026 00:00:00 GMT`.
package enum SigV4Time {
    /// Seconds since 1970 of `20260101T000000Z`, or `nil` when the text is not exactly that form.
    package static func parseBasic(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15)
        else { return nil }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Seconds since 1970 of `Thu, 01 Jan 2026 00:00:00 GMT`, or `nil`.
    package static func parseHTTPDate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
            let month = CivilDate.monthNames.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2])
        else { return nil }
        return seconds(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    }

    /// `20260101T000000Z` for seconds since 1970 (the fraction dropped).
    package static func basic(_ seconds: Double) -> String {
        AmzDate(Date(timeIntervalSince1970: seconds)).timestamp
    }

    private static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Double? {
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second)
    }
}
