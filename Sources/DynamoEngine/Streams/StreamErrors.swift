import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DynamoErrorCode {
    /// DynamoDB Streams: the shard iterator is older than 15 minutes.
    package static let expiredIterator = Self(rawValue: "ExpiredIteratorException")
    /// DynamoDB Streams: the position lies before the shard's oldest retained record.
    package static let trimmedDataAccess = Self(rawValue: "TrimmedDataAccessException")
}

/// DynamoDB Streams' errors. Which wordings are the service's own (quoted in reports of the
/// real service) and which are not yet confirmed is listed in docs/compatibility.md's wording
/// table; the exception types are all confirmed.
enum StreamErrors {
    static func invalidStreamARN() -> DynamoError {
        DynamoError.validation("Invalid StreamArn")
    }

    static func streamNotFound(_ arn: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: Stream: \(arn) not found")
    }

    static func tableNotFound(_ name: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: Table: \(name) not found")
    }

    static func shardNotFound() -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: Shard does not exist")
    }

    static func invalidIterator() -> DynamoError {
        DynamoError.validation("Invalid ShardIterator")
    }

    static func shardOfIteratorGone() -> DynamoError {
        DynamoError(.resourceNotFound, "Invalid ShardId in ShardIterator")
    }

    static func trimmed() -> DynamoError {
        DynamoError(.trimmedDataAccess, "The data you are trying to access has been trimmed")
    }

    /// Worded as Kinesis Data Streams words its `ExpiredIteratorException`, times in Java's
    /// `Date.toString()` form (`Thu Jan 01 00:15:01 UTC 2026`); no report of DynamoDB Streams'
    /// own text was found.
    static func expired(issued: Double, now: Double) -> DynamoError {
        let tolerated = Int(StreamNames.iteratorLifetimeSeconds * 1000)
        return DynamoError(
            .expiredIterator,
            "Iterator expired. The iterator was created at time \(javaDate(issued)) while right now it is \(javaDate(now)) which is further in the future than the tolerated delay of \(tolerated) milliseconds."
        )
    }

    /// `seconds` since 1970 as Java's `Date.toString()` writes it in UTC.
    static func javaDate(_ seconds: Double) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second, .weekday],
            from: Date(timeIntervalSince1970: seconds.rounded(.down)))
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(days[(parts.weekday ?? 1) - 1]) \(months[(parts.month ?? 1) - 1]) \(two(parts.day)) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) UTC \(parts.year ?? 1970)"
    }

    static func sequenceNumberRequired(_ type: String) -> DynamoError {
        DynamoError.validation("SequenceNumber is required when ShardIteratorType is \(type)")
    }

    static func sequenceNumberNotAllowed(_ type: String) -> DynamoError {
        DynamoError.validation("SequenceNumber must not be given when ShardIteratorType is \(type)")
    }

    /// AT_TIMESTAMP without its `Timestamp` (worded as the SequenceNumber rules are; no report
    /// of the service's text was found).
    static func timestampRequired() -> DynamoError {
        DynamoError.validation("Timestamp is required when ShardIteratorType is AT_TIMESTAMP")
    }

    static func timestampNotAllowed(_ type: String) -> DynamoError {
        DynamoError.validation("Timestamp must not be given when ShardIteratorType is \(type)")
    }

    /// An AT_TIMESTAMP `Timestamp` after the server's clock (a ValidationException, as the API
    /// reference says; both times in milliseconds since 1970).
    static func timestampInFuture(millis: Int64, nowMillis: Int64) -> DynamoError {
        DynamoError.validation(
            "The Timestamp must not be in the future. Timestamp: \(millis) milliseconds, current time: \(nowMillis) milliseconds")
    }

    static func invalidSequenceNumber(_ text: String, shard: String) -> DynamoError {
        DynamoError.validation("Invalid SequenceNumber \(text) for shard \(shard)")
    }

    static func recordLimit(_ limit: Int) -> DynamoError {
        DynamoError.validation("One or more parameter values were invalid: Limit should be less than or equal to 1000")
    }
}
