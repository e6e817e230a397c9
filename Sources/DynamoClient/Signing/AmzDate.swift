import Foundation

/// The two date forms SigV4 uses, computed from a `Date` in UTC without a formatter.
struct AmzDate: Sendable, Hashable {
    /// `20150830T123600Z`, the `X-Amz-Date` header.
    let timestamp: String
    /// `20150830`, the date of the credential scope.
    let day: String

    init(_ date: Date) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, dayOfMonth) = AmzDate.civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        day = "\(year)" + two(month) + two(dayOfMonth)
        timestamp = day + "T" + two(secondOfDay / 3600) + two(secondOfDay / 60 % 60) + two(secondOfDay % 60) + "Z"
    }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a day count since
    /// 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
