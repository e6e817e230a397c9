import DynamoAPI

/// The `Date` header's format (RFC 9110's IMF-fixdate): `Wed, 25 Nov 2026 10:45:00 GMT`.
enum HTTPDate {
    /// Formats seconds since 1970 (the fraction is dropped).
    static func format(epochSeconds: Double) -> String {
        let date = CivilDate(secondsSince1970: epochSeconds)
        let two = CivilDate.twoDigits
        return "\(CivilDate.weekdayNames[date.weekday]), \(two(date.day)) \(CivilDate.monthNames[date.month - 1]) \(date.year) "
            + "\(two(date.hour)):\(two(date.minute)):\(two(date.second)) GMT"
    }
}
