#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A point in time as DynamoDB's JSON protocol sends it: seconds since 1970 as a JSON number
/// (for example `1505847222.951`).
///
/// The seconds are kept exactly as received, so decoding and re-encoding never changes them;
/// `date` converts to Foundation's `Date`.
///
/// ```swift
/// let created = Timestamp(secondsSince1970: 1_505_847_222.951)
/// print(created.date)   // 2017-09-19 18:53:42 +0000
/// ```
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double

    /// A timestamp `secondsSince1970` seconds after the Unix epoch.
    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The timestamp of a `Date`.
    public init(_ date: Date) {
        self.secondsSince1970 = date.timeIntervalSince1970
    }

    /// The same instant as a Foundation `Date`.
    public var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// The seconds as DynamoDB writes them.
    public var description: String {
        var writer = JSONWriter(reservingCapacity: 24)
        writer.write(secondsSince1970)
        return writer.string
    }
}
