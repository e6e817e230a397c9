import DynamoAPI
import DynamoPartiQL

extension TableDefinition {
    /// The table's key schema as the PartiQL translator sees it.
    var partiQLSchema: PartiQLSchema {
        PartiQLSchema(
            partitionKey: PartiQLKey(name: partitionKey.name, type: partitionKey.type.rawValue),
            sortKey: sortKey.map { PartiQLKey(name: $0.name, type: $0.type.rawValue) })
    }
}

extension IndexDefinition {
    /// The index's key schema, or `nil` for a multi-attribute key (which PartiQL refuses to read).
    var partiQLSchema: PartiQLSchema? {
        guard !isMultiAttribute else { return nil }
        return PartiQLSchema(
            partitionKey: PartiQLKey(name: partitionKey.name, type: partitionKey.type.rawValue),
            sortKey: sortKey.map { PartiQLKey(name: $0.name, type: $0.type.rawValue) })
    }
}

extension DynamoError {
    /// The `Code` of a batch statement's `Error` for this error (`ConditionalCheckFailed`,
    /// `DuplicateItem`, `ValidationError`, …).
    var batchStatementCode: BatchStatementErrorCodeEnum {
        switch code.rawValue {
        case "ValidationException": .validationError
        case "ThrottlingException": .throttlingError
        case let raw where raw.hasSuffix("Exception"): BatchStatementErrorCodeEnum(rawValue: String(raw.dropLast("Exception".count)))
        case let raw: BatchStatementErrorCodeEnum(rawValue: raw)
        }
    }
}
