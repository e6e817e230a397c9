/// A UTC calendar date and time of day from seconds since 1970, without Foundation's
/// formatters: what the server's `Date` header, Java-style renderings and SigV4 dates are built
/// from.
package struct CivilDate: Sendable, Equatable {
    package var year: Int
    /// 1…12.
    package var month: Int
    /// 1…31.
    package var day: Int
    /// 0 = Sunday … 6 = Saturday.
    package var weekday: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    /// The date of `seconds` since 1970-01-01T00:00:00Z (the fraction is dropped, towards the past).
    package init(secondsSince1970 seconds: Double) {
        let whole = Int64(seconds.rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = Int(whole - days * 86_400)
        // Howard Hinnant's civil_from_days.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
        weekday = Int(((days % 7) + 7 + 4) % 7) // 1970-01-01 was a Thursday
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
    }

    /// English three-letter weekday names, Sunday first.
    package static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    /// English three-letter month names.
    package static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A number with at least two digits (`7` → `07`).
    package static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
