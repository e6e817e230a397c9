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

    static func expired(issued: Double, now: Double) -> DynamoError {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: .gmt)
        let created = style.format(Date(timeIntervalSince1970: issued))
        let current = style.format(Date(timeIntervalSince1970: now))
        let tolerated = Int(StreamNames.iteratorLifetimeSeconds * 1000)
        return DynamoError(
            .expiredIterator,
            "Iterator expired. The iterator was created at time \(created) while right now it is \(current) which is further in the future than the tolerated delay of \(tolerated) milliseconds.")
    }

    static func sequenceNumberRequired(_ type: String) -> DynamoError {
        DynamoError.validation("SequenceNumber is required when ShardIteratorType is \(type)")
    }

    static func sequenceNumberNotAllowed(_ type: String) -> DynamoError {
        DynamoError.validation("SequenceNumber must not be given when ShardIteratorType is \(type)")
    }

    static func invalidSequenceNumber(_ text: String, shard: String) -> DynamoError {
        DynamoError.validation("Invalid SequenceNumber \(text) for shard \(shard)")
    }

    static func listLimit(_ limit: Int) -> DynamoError {
        DynamoError.validation(
            "1 validation error detected: Value '\(limit)' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100")
    }

    static func recordLimit(_ limit: Int) -> DynamoError {
        DynamoError.validation("One or more parameter values were invalid: Limit should be less than or equal to 1000")
    }
}
