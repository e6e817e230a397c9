import DynamoAPI
import DynamoPartiQL

extension TableDefinition {
    /// The table's key schema as the PartiQL translator sees it.
    var partiQLSchema: PartiQLSchema {
        PartiQLSchema(partitionKey: PartiQLKey(name: partitionKey.name, type: partitionKey.type.rawValue),
                      sortKey: sortKey.map { PartiQLKey(name: $0.name, type: $0.type.rawValue) })
    }
}

extension IndexDefinition {
    /// The index's key schema, or `nil` for a multi-attribute key (read by scanning).
    var partiQLSchema: PartiQLSchema? {
        guard !isMultiAttribute else { return nil }
        return PartiQLSchema(partitionKey: PartiQLKey(name: partitionKey.name, type: partitionKey.type.rawValue),
                             sortKey: sortKey.map { PartiQLKey(name: $0.name, type: $0.type.rawValue) })
    }
}

extension ConsumedUnits {
    /// The `ConsumedCapacity` shape for `ReturnConsumedCapacity` (`nil` for `NONE` or absent).
    func shape(table name: String, mode: ReturnConsumedCapacity?) -> ConsumedCapacity? {
        guard let mode = mode?.rawValue, mode == "TOTAL" || mode == "INDEXES" else { return nil }
        var capacity = ConsumedCapacity()
        capacity.tableName = name
        capacity.capacityUnits = total
        if mode == "INDEXES" {
            capacity.table = DynamoAPI.Capacity(capacityUnits: table)
            if !globalIndexes.isEmpty { capacity.globalSecondaryIndexes = globalIndexes.mapValues { DynamoAPI.Capacity(capacityUnits: $0) } }
            if !localIndexes.isEmpty { capacity.localSecondaryIndexes = localIndexes.mapValues { DynamoAPI.Capacity(capacityUnits: $0) } }
        }
        return capacity
    }

    /// One `ConsumedCapacity` per table, in table-name order (batches and transactions).
    static func shapes(_ units: [String: ConsumedUnits], mode: ReturnConsumedCapacity?) -> [ConsumedCapacity]? {
        guard let mode = mode?.rawValue, mode == "TOTAL" || mode == "INDEXES" else { return nil }
        return units.sorted { $0.key < $1.key }.compactMap { $0.value.shape(table: $0.key, mode: ReturnConsumedCapacity(rawValue: mode)) }
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
