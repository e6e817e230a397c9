import DynamoAPI
import DynamoEngine

/// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: generated input shape →
/// engine → generated output shape.
enum PartiQLOperations {
    static let executeStatement = EngineDispatcher.shaped { (input: ExecuteStatementInput, context) in
        try context.database.executeStatement(input, now: context.now)
    }

    static let batchExecuteStatement = EngineDispatcher.shaped { (input: BatchExecuteStatementInput, context) in
        try context.database.batchExecuteStatement(input)
    }

    static let executeTransaction = EngineDispatcher.shaped { (input: ExecuteTransactionInput, context) in
        try context.database.executeTransaction(input, now: context.now)
    }
}
