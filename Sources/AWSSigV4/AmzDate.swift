import DynamoAPI
import Foundation

/// The two date forms SigV4 uses, computed from a `Date` in UTC without a formatter.
public struct AmzDate: Sendable, Hashable {
    /// `20150830T123600Z`, the `X-Amz-Date` header.
    public let timestamp: String
    /// `20150830`, the date of the credential scope.
    public let day: String

    /// The forms of `date`, in UTC.
    public init(_ date: Date) {
        let civil = CivilDate(secondsSince1970: date.timeIntervalSince1970)
        let two = CivilDate.twoDigits
        day = "\(civil.year)" + two(civil.month) + two(civil.day)
        timestamp = day + "T" + two(civil.hour) + two(civil.minute) + two(civil.second) + "Z"
    }
}
