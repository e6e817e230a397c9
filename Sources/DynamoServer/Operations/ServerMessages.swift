import DynamoAPI

/// The server's DynamoDB messages, word for word: each sentence is written here once and the HTTP
/// layer and the dispatcher throw these.
enum ServerMessages {}

// MARK: - HTTP/HTTPReply.swift

extension ServerMessages {
    /// Thrown by HTTPReply.internalServerError, EngineDispatcher.failure.
    static let internalServerError = DynamoError(.internalServerError, "Internal server error")
}

// MARK: - HTTP/WireProtocol.swift

extension ServerMessages {
    /// Thrown by WireProtocol.fail.
    static let requestMissingAuthenticationToken = DynamoError(.missingAuthenticationToken, "Request is missing Authentication Token")
}

// MARK: - Operations/EngineDispatcher.swift

extension ServerMessages {
    /// Thrown by EngineDispatcher.parseConflicts.
    static func invalidConflictHeader(conflictHeader: String, header: String) -> DynamoError {
        .validation("\(conflictHeader) must be TABLE=COUNT[, TABLE=COUNT...]; got: \(header)")
    }
}

// MARK: - Operations/TableOperations.swift (OperationRows.naming)

extension ServerMessages {
    /// Thrown by OperationRows.naming.
    static func requestedResourceNotFoundTable(reference: String) -> DynamoError {
        DynamoError(.resourceNotFound, "Requested resource not found: Table: \(reference) not found")
    }
}
