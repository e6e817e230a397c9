import DynamoAPI
import DynamoExpressions
import DynamoPartiQL

extension Database {
    /// Runs up to 100 statements all or nothing: writes (INSERT, UPDATE, DELETE, `[NOT]
    /// EXISTS(SELECT …)` checks) as one TransactWriteItems, so `ClientRequestToken` follows its
    /// rules; reads (single-item SELECTs) as one TransactGetItems, answered in `Responses`.
    ///
    /// - Throws: `TransactionCanceledException` with one reason per statement (`DuplicateItem`
    ///   for an INSERT of an existing key), `ValidationException` for a mix of reads and writes.
    package func executeTransaction(_ input: ExecuteTransactionInput, now: Double) throws -> ExecuteTransactionOutput {
        var statements: [PartiQLStatement] = []
        for (position, request) in input.transactStatements.enumerated() {
            try PartiQLTranslator.checkParameters(request.parameters)
            // A statement's own errors name the statement (`Validation failed in TransactStatements[0]: …`).
            let parsed = try Self.naming(position) { () throws(DynamoError) in
                try PartiQLTranslator.parse(request.statement, parameters: request.parameters)
            }
            if let first = statements.first, first.isRead != parsed.statement.isRead {
                throw PartiQLMessages.transactionMixed
            }
            statements.append(parsed.statement)
        }
        let requests = zip(statements, input.transactStatements)
        if statements.first?.isRead == true {
            var gets: [TransactGetItem] = []
            var reads: [PartiQLKeyedRead] = []
            for (position, (statement, request)) in requests.enumerated() {
                if statement.index != nil {
                    throw PartiQLMessages.transactionStatement(position, PartiQLMessages.transactionIndexRead)
                }
                let definition = try table(named: statement.table)
                let read = try Self.naming(position) { () throws(DynamoError) in
                    let read = try PartiQLTranslator.keyedRead(
                        statement, schema: definition.partiQLSchema,
                        parameters: request.parameters ?? [],
                        incomplete: PartiQLMessages.transactionReadKey)
                    if read.condition != nil { throw PartiQLMessages.transactionReadKey }
                    return read
                }
                reads.append(read)
                gets.append(TransactGetItem(get: Get(key: read.key, tableName: read.table)))
            }
            let result = try transactGetItems(TransactGetItemsInput(transactItems: gets))
            var responses: [ItemResponse] = []
            for (json, read) in zip(result.items, reads) {
                guard let json else {
                    responses.append(ItemResponse())
                    continue
                }
                let item = try AttributeValue.decodeItem(bytes: json)
                responses.append(ItemResponse(item: read.projection.map { PartiQLProjection.apply($0, to: item) } ?? item))
            }
            return ExecuteTransactionOutput(
                responses: responses,
                consumedCapacity: ConsumedUnits.shapes(result.capacity, mode: input.returnConsumedCapacity))
        }
        var plans: [PartiQLWritePlan] = []
        for (position, (statement, request)) in requests.enumerated() {
            if statement.index != nil { throw PartiQLMessages.transactionIndexWrite }
            let definition = try table(named: statement.table)
            let plan = try Self.naming(position) { () throws(DynamoError) in
                try PartiQLTranslator.write(
                    statement, schema: definition.partiQLSchema, parameters: request.parameters ?? [],
                    returnOnFailure: request.returnValuesOnConditionCheckFailure)
            }
            if plan.returning != nil {
                throw PartiQLMessages.transactionStatement(position, PartiQLMessages.transactionReturning)
            }
            plans.append(plan)
        }
        let transaction = TransactWriteItemsInput(
            transactItems: plans.map(\.action),
            returnConsumedCapacity: input.returnConsumedCapacity,
            clientRequestToken: input.clientRequestToken)
        do {
            let result = try transactWriteItems(transaction, now: now)
            // A transaction of writes answers an empty `Responses` (measured, 2026-10).
            return ExecuteTransactionOutput(
                responses: [],
                consumedCapacity: ConsumedUnits.shapes(
                    result.capacity,
                    mode: input.returnConsumedCapacity))
        } catch let error as DynamoError where error.code == .transactionCanceled {
            // An INSERT's failed "no such key" condition is a duplicate key.
            guard var reasons = error.cancellationReasons, reasons.count == plans.count else { throw error }
            for (position, plan) in plans.enumerated() where plan.isInsert && reasons[position].code == "ConditionalCheckFailed" {
                reasons[position] = CancellationReason(
                    item: reasons[position].item, code: "DuplicateItem",
                    message: PartiQLMessages.duplicateItem.message)
            }
            throw DynamoError.transactionCanceled(reasons)
        }
    }

    /// Runs `body`, naming the statement at `position` in its `ValidationException`s.
    private static func naming<T>(_ position: Int, _ body: () throws(DynamoError) -> T) throws(DynamoError) -> T {
        do {
            return try body()
        } catch {
            guard error.code == .validation else { throw error }
            throw PartiQLMessages.transactionStatement(position, error)
        }
    }
}
