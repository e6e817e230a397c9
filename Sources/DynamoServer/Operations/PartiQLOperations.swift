import DynamoAPI
import DynamoEngine

/// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: decode, run on the engine,
/// render the generated output shape.
enum PartiQLOperations {
    static let executeStatement: EngineDispatcher.Operation = { body, context in
        let input = try ExecuteStatementInput.decodeRequest(body)
        return try context.database.executeStatement(input).jsonBytes
    }

    static let batchExecuteStatement: EngineDispatcher.Operation = { body, context in
        let input = try BatchExecuteStatementInput.decodeRequest(body)
        return try context.database.batchExecuteStatement(input).jsonBytes
    }

    static let executeTransaction: EngineDispatcher.Operation = { body, context in
        let input = try ExecuteTransactionInput.decodeRequest(body)
        return try context.database.executeTransaction(input, now: context.now).jsonBytes
    }
}
