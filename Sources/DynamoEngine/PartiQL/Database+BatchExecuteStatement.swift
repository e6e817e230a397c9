import DynamoAPI
import DynamoExpressions
import DynamoPartiQL

extension Database {
    /// Runs up to 25 statements, all reads (single-item SELECTs, as BatchGetItem) or all writes
    /// (each as its PutItem, UpdateItem or DeleteItem); one response per statement, in order,
    /// with `Item` or `Error {Code, Message}`. One statement failing does not fail the others.
    ///
    /// - Throws: `ValidationException` "Read and write requests together in the same batch is
    ///   not supported." for a mix; other errors are per statement.
    package func batchExecuteStatement(_ input: BatchExecuteStatementInput) throws -> BatchExecuteStatementOutput {
        var parsed: [Result<ParsedStatement, DynamoError>] = []
        var reads: Bool?
        for request in input.statements {
            do {
                let statement = try PartiQLTranslator.parse(request.statement, parameters: request.parameters)
                if case .exists = statement.statement { throw PartiQLMessages.existsOutsideTransaction }
                if let reads, reads != statement.statement.isRead { throw PartiQLMessages.batchMixed }
                reads = statement.statement.isRead
                parsed.append(.success(statement))
            } catch let error as DynamoError where error != PartiQLMessages.batchMixed {
                parsed.append(.failure(error))
            }
        }
        var responses: [BatchStatementResponse] = []
        var capacity: [String: ConsumedUnits] = [:]
        for (request, entry) in zip(input.statements, parsed) {
            let parameters = request.parameters ?? []
            do {
                let statement = try entry.get()
                var response = BatchStatementResponse(tableName: statement.statement.table)
                if statement.statement.isRead {
                    let read = try batchRead(
                        statement.statement, parameters: parameters,
                        consistent: request.consistentRead ?? false)
                    response.item = read.item
                    capacity[read.table, default: ConsumedUnits()].add(read.capacity)
                } else {
                    // DynamoDB ignores a member's ReturnValuesOnConditionCheckFailure: a failed
                    // condition never carries the item here (measured against the service, 2026).
                    let plan = try partiQLWritePlan(statement.statement, parameters: parameters, returnOnFailure: nil)
                    let outcome = try runPartiQLWrite(plan, capacity: input.returnConsumedCapacity)
                    capacity[plan.tableName, default: ConsumedUnits()].add(outcome.capacity)
                }
                responses.append(response)
            } catch let error as DynamoError {
                let failure = BatchStatementError(code: error.batchStatementCode, message: error.message)
                var response = BatchStatementResponse(error: failure)
                if case .success(let statement) = entry, error.code != .resourceNotFound {
                    response.tableName = statement.statement.table
                }
                responses.append(response)
            }
        }
        return BatchExecuteStatementOutput(
            responses: responses,
            consumedCapacity: ConsumedUnits.shapes(capacity, mode: input.returnConsumedCapacity))
    }

    /// One batch SELECT: a GetItem of the item its WHERE names, kept if the rest of the WHERE holds.
    private func batchRead(
        _ statement: PartiQLStatement, parameters: [AttributeValue],
        consistent: Bool
    ) throws -> (item: Item?, table: String, capacity: ConsumedUnits) {
        let definition = try table(named: statement.table)
        if statement.index != nil { throw PartiQLMessages.batchSingleItem }
        let read = try PartiQLTranslator.keyedRead(
            statement, schema: definition.partiQLSchema, parameters: parameters,
            incomplete: PartiQLMessages.batchSingleItem)
        let result = try getItem(GetItemInput(tableName: read.table, key: read.key, consistentRead: consistent))
        guard let json = result.json else { return (nil, read.table, result.capacity) }
        let item = try AttributeValue.decodeItem(bytes: json)
        if let condition = read.condition, !condition.evaluate(item) { return (nil, read.table, result.capacity) }
        return (read.projection.map { PartiQLProjection.apply($0, to: item) } ?? item, read.table, result.capacity)
    }
}
