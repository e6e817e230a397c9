import DynamoAPI
import DynamoClient
import Logging

extension ObjectContext {
    /// Sends a save of one item as a conditional `PutItem`, `UpdateItem` or `DeleteItem` (half
    /// the write units of a one-action transaction); returns the conflict when the condition
    /// failed, with the row the store holds (`ALL_OLD`). `TransactionConflictException` (the
    /// item is in another client's transaction) is retried like a transaction conflict. Every
    /// write asks for `ReturnConsumedCapacity = TOTAL`, so a client observer sees what a save
    /// costs.
    func executeSingle(_ write: WriteAction) async throws -> [Conflict] {
        var attempt = 1
        while true {
            do {
                return try await sendSingle(write)
            } catch let error as DynamoError where error.code == .transactionConflict && attempt < store.conflictRetry.maximumAttempts {
                store.logger.debug("transaction conflict; retrying", metadata: ["attempt": .stringConvertible(attempt)])
                try await store.conflictRetry.sleep(store.conflictRetry.backoff(attempt: attempt))
                attempt += 1
            }
        }
    }

    private func sendSingle(_ write: WriteAction) async throws -> [Conflict] {
        let action = write.action
        do {
            if let put = action.put {
                var input = PutItemInput(
                    tableName: put.tableName, item: put.item, conditionExpression: put.conditionExpression,
                    expressionAttributeNames: put.expressionAttributeNames,
                    expressionAttributeValues: put.expressionAttributeValues,
                    returnValuesOnConditionCheckFailure: put.returnValuesOnConditionCheckFailure)
                input.returnConsumedCapacity = .total
                _ = try await store.client.putItem(input)
            } else if let update = action.update {
                var input = UpdateItemInput(
                    tableName: update.tableName, key: update.key, updateExpression: update.updateExpression,
                    conditionExpression: update.conditionExpression,
                    expressionAttributeNames: update.expressionAttributeNames,
                    expressionAttributeValues: update.expressionAttributeValues,
                    returnValuesOnConditionCheckFailure: update.returnValuesOnConditionCheckFailure)
                input.returnConsumedCapacity = .total
                _ = try await store.client.updateItem(input)
            } else if let delete = action.delete {
                var input = DeleteItemInput(
                    tableName: delete.tableName, key: delete.key, conditionExpression: delete.conditionExpression,
                    expressionAttributeNames: delete.expressionAttributeNames,
                    expressionAttributeValues: delete.expressionAttributeValues,
                    returnValuesOnConditionCheckFailure: delete.returnValuesOnConditionCheckFailure)
                input.returnConsumedCapacity = .total
                _ = try await store.client.deleteItem(input)
            }
            return []
        } catch let error as DynamoError where error.code == .conditionalCheckFailed {
            return [Conflict(action: write, storeItem: error.item, context: self)]
        }
    }
}
