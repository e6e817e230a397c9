import DynamoAPI
import DynamoExpressions
import DynamoPartiQL

extension Database {
    /// Runs up to 25 statements, all reads (single-item SELECTs, as BatchGetItem) or all writes
    /// (each as its PutItem, UpdateItem or DeleteItem); one response per statement, in order,
    /// with `Item` (a read's item, or what a write's RETURNING returns) or `Error {Code,
    /// Message}`. One statement failing does not fail the others.
    ///
    /// - Throws: `ValidationException` "Read and write requests together in the same batch is
    ///   not supported." for a mix; other errors are per statement.
    package func batchExecuteStatement(_ input: BatchExecuteStatementInput) throws -> BatchExecuteStatementOutput {
        var parsed: [Result<ParsedStatement, DynamoError>] = []
        var reads: Bool?
        for request in input.statements {
            do {
                // A parameter the statement cannot take fails the statement alone (2026-10).
                if let problem = request.parameterProblem { throw problem }
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
                    // Unlike ExecuteTransaction, a batch honours RETURNING: the item comes back
                    // as the member's `Item` (none for an empty MODIFIED image; eu-west-2, 2026).
                    response.item = outcome.items.first
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

    /// One batch SELECT: a GetItem of the item its WHERE names by its whole key.
    private func batchRead(
        _ statement: PartiQLStatement, parameters: [AttributeValue],
        consistent: Bool
    ) throws -> (item: Item?, table: String, capacity: ConsumedUnits) {
        let definition = try table(named: statement.table)
        if let indexName = statement.index {
            // A multi-attribute index is refused ahead of the batch's key rule (2026-10).
            if definition.index(named: indexName)?.isMultiAttribute == true { throw PartiQLMessages.multiAttributeIndex }
            if let refusal = statement.projectionError { throw refusal }
            throw PartiQLMessages.batchReadKey
        }
        let read = try PartiQLTranslator.keyedRead(
            statement, schema: definition.partiQLSchema, parameters: parameters,
            incomplete: PartiQLMessages.batchReadKey)
        // A batch SELECT names one item by its key and nothing else (DynamoDB Local's front end
        // refuses any other condition; the service's words, eu-west-2 2026-10).
        if read.condition != nil { throw PartiQLMessages.batchReadKey }
        let result = try getItem(GetItemInput(tableName: read.table, key: read.key, consistentRead: consistent))
        guard let json = result.json else { return (nil, read.table, result.capacity) }
        let item = try AttributeValue.decodeItem(bytes: json)
        return (read.projection.map { PartiQLProjection.apply($0, to: item) } ?? item, read.table, result.capacity)
    }
}
