import DynamoAPI
import DynamoExpressions
import DynamoPartiQL

extension Database {
    /// Runs one PartiQL statement: a SELECT as a Query (WHERE fixes the partition key with `=`
    /// or `IN`) or a Scan with the WHERE as filter, paged by `Limit`, 1 MB and `NextToken`; an
    /// INSERT, UPDATE or DELETE as the PutItem, UpdateItem or DeleteItem it translates into.
    ///
    /// - Throws: DynamoDB's PartiQL errors: `ValidationException` (syntax, parameters, keys),
    ///   `ResourceNotFoundException`, `ConditionalCheckFailedException`, `DuplicateItemException`.
    /// - Parameter now: the request's time on the server's clock (NextToken expiry).
    package func executeStatement(_ input: ExecuteStatementInput, now: Double) throws -> ExecuteStatementOutput {
        let result = try executeStatementResult(input, now: now)
        guard let itemsJSON = result.itemsJSON else { return result.output }
        var output = result.output
        output.items = try itemsJSON.map { try AttributeValue.decodeItem(bytes: $0) }
        return output
    }

    /// What ``executeStatementResult(_:now:)`` answers: the output, and for a
    /// SELECT its items as the JSON the read produced, to be written into the answer as they are
    /// (decoding them into `items` only to encode them again cost more than the read).
    package struct StatementResult: Sendable {
        /// The answer; for a SELECT without its `Items`.
        package var output: ExecuteStatementOutput
        /// A SELECT's items, each a DynamoDB JSON item (`{"pk":{"S":"a"}}`), in order; `nil`
        /// when `output.items` holds the items (writes).
        package var itemsJSON: [[UInt8]]?
    }

    /// ``executeStatement(_:now:)`` with a SELECT's items left as JSON.
    package func executeStatementResult(_ input: ExecuteStatementInput, now: Double) throws -> StatementResult {
        let parsed = try PartiQLTranslator.parse(input.statement, parameters: input.parameters)
        let parameters = input.parameters ?? []
        switch parsed.statement {
        case .select:
            if input.nextToken == nil, let lookup = parsed.keyLookup {
                // A SELECT by equalities on the whole key: a GetItem, no plan to build.
                let definition = try table(named: lookup.table)
                if let key = lookup.key(in: definition.partiQLSchema, parameters: parameters) {
                    return try selectItem(key: key, table: lookup.table, filter: nil, projection: lookup.projection, input: input)
                }
            }
            return try executeSelect(parsed.statement, input: input, parameters: parameters, now: now)
        case .exists:
            throw PartiQLMessages.existsOutsideTransaction
        default:
            let plan = try partiQLWritePlan(
                parsed.statement, parameters: parameters,
                returnOnFailure: input.returnValuesOnConditionCheckFailure)
            let outcome = try runPartiQLWrite(plan, capacity: input.returnConsumedCapacity)
            var output = ExecuteStatementOutput(items: outcome.items)
            output.consumedCapacity = outcome.capacity.shape(table: plan.tableName, mode: input.returnConsumedCapacity)
            return StatementResult(output: output)
        }
    }

    /// Whether `input` reads one item by its whole table key (a first page): work as bounded
    /// as a GetItem's, which the server runs on an event loop. Looks at the statement (parsed
    /// once and cached) and the table's key schema, never at an item; `false` for everything
    /// else, statements that fail included (they are answered where long work may run).
    package func readsOneItemByKey(_ input: ExecuteStatementInput) -> Bool {
        guard input.nextToken == nil, let parsed = try? PartiQLTranslator.parse(input.statement, parameters: input.parameters)
        else { return false }
        let parameters = input.parameters ?? []
        // A key lookup is a SELECT of the table (never an index) and names its table itself,
        // which costs less than asking the statement.
        if let lookup = parsed.keyLookup {
            guard let definition = try? table(named: lookup.table) else { return false }
            let schema = definition.partiQLSchema
            if lookup.readsOneItem(in: schema, parameters: parameters) { return true }
            return Self.selectsFullKey(parsed.statement, of: definition, schema: schema, parameters: parameters)
        }
        guard case .select = parsed.statement, parsed.statement.index == nil,
            let definition = try? table(named: parsed.statement.table)
        else { return false }
        return Self.selectsFullKey(parsed.statement, of: definition, schema: definition.partiQLSchema, parameters: parameters)
    }

    /// Whether the SELECT `statement`, planned against `definition`, reads one item by its key.
    private static func selectsFullKey(
        _ statement: PartiQLStatement, of definition: TableDefinition, schema: PartiQLSchema, parameters: [AttributeValue]
    ) -> Bool {
        let plan = try? PartiQLTranslator.select(statement, schema: schema, parameters: parameters)
        return plan?.fullKey(of: definition) != nil
    }

    /// Translates a write against its table's key schema.
    func partiQLWritePlan(
        _ statement: PartiQLStatement, parameters: [AttributeValue],
        returnOnFailure: ReturnValuesOnConditionCheckFailure?
    ) throws -> PartiQLWritePlan {
        // DynamoDB refuses a write through an index before it looks the table up.
        if statement.index != nil, !statement.isCheck { throw PartiQLMessages.indexWrite }
        let definition = try table(named: statement.table)
        return try PartiQLTranslator.write(
            statement, schema: definition.partiQLSchema, parameters: parameters,
            returnOnFailure: returnOnFailure)
    }

    /// Runs a translated write as PutItem, UpdateItem or DeleteItem: the items `RETURNING`
    /// asks for (an empty list without it, as DynamoDB answers) and the capacity consumed.
    func runPartiQLWrite(
        _ plan: PartiQLWritePlan,
        capacity: ReturnConsumedCapacity?
    ) throws -> (items: [Item], capacity: ConsumedUnits) {
        let action = plan.action
        if let put = action.put {
            let input = PutItemInput(
                tableName: put.tableName, item: put.item, returnConsumedCapacity: capacity,
                conditionExpression: put.conditionExpression,
                expressionAttributeNames: put.expressionAttributeNames,
                returnValuesOnConditionCheckFailure: put.returnValuesOnConditionCheckFailure)
            do {
                return ([], try putItem(input).capacity)
            } catch let error as DynamoError where error.code == .conditionalCheckFailed {
                throw PartiQLMessages.duplicateItem
            }
        }
        if let update = action.update {
            let returnValues: ReturnValue? =
                switch plan.returning {
                case .allOld: .allOld
                case .modifiedOld: .updatedOld
                case .allNew: .allNew
                case .modifiedNew: .updatedNew
                case nil: nil
                }
            let input = UpdateItemInput(
                tableName: update.tableName, key: update.key,
                returnValues: returnValues,
                returnConsumedCapacity: capacity, updateExpression: update.updateExpression,
                conditionExpression: update.conditionExpression,
                expressionAttributeNames: update.expressionAttributeNames,
                expressionAttributeValues: update.expressionAttributeValues,
                returnValuesOnConditionCheckFailure: update.returnValuesOnConditionCheckFailure)
            let result = try updateItem(input)
            let returned = result.returnedAttributes.map { $0.isEmpty ? [] : [$0] } ?? []
            return (returned, result.capacity)
        }
        let delete = action.delete!
        let input = DeleteItemInput(
            tableName: delete.tableName, key: delete.key,
            returnValues: plan.returning == nil ? nil : .allOld,
            returnConsumedCapacity: capacity, conditionExpression: delete.conditionExpression,
            expressionAttributeNames: delete.expressionAttributeNames,
            expressionAttributeValues: delete.expressionAttributeValues,
            returnValuesOnConditionCheckFailure: delete.returnValuesOnConditionCheckFailure)
        let result = try deleteItem(input)
        return (result.oldItem.map { [$0] } ?? [], result.capacity)
    }
}
