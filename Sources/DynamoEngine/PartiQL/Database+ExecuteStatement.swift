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
        let parsed = try PartiQLTranslator.parse(input.statement, parameters: input.parameters)
        let parameters = input.parameters ?? []
        switch parsed.statement {
        case .select:
            return try executeSelect(parsed.statement, input: input, parameters: parameters, now: now)
        case .exists:
            throw PartiQLMessages.existsOutsideTransaction
        default:
            let plan = try partiQLWritePlan(parsed.statement, parameters: parameters,
                                            returnOnFailure: input.returnValuesOnConditionCheckFailure)
            let outcome = try runPartiQLWrite(plan, capacity: input.returnConsumedCapacity)
            var output = ExecuteStatementOutput(items: outcome.items)
            output.consumedCapacity = outcome.capacity.shape(table: plan.tableName, mode: input.returnConsumedCapacity)
            return output
        }
    }

    /// Translates a write against its table's key schema.
    func partiQLWritePlan(_ statement: PartiQLStatement, parameters: [AttributeValue],
                          returnOnFailure: ReturnValuesOnConditionCheckFailure?) throws -> PartiQLWritePlan {
        // DynamoDB refuses a write through an index before it looks the table up.
        if statement.index != nil, !statement.isCheck { throw PartiQLMessages.indexWrite }
        let definition = try table(named: statement.table)
        return try PartiQLTranslator.write(statement, schema: definition.partiQLSchema, parameters: parameters,
                                           returnOnFailure: returnOnFailure)
    }

    /// Runs a translated write as PutItem, UpdateItem or DeleteItem: the items `RETURNING`
    /// asks for (an empty list without it, as DynamoDB answers) and the capacity consumed.
    func runPartiQLWrite(_ plan: PartiQLWritePlan,
                         capacity: ReturnConsumedCapacity?) throws -> (items: [Item], capacity: ConsumedUnits) {
        let action = plan.action
        if let put = action.put {
            let input = PutItemInput(tableName: put.tableName, item: put.item, returnConsumedCapacity: capacity,
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
            let returnValues: ReturnValue? = switch plan.returning {
            case .allOld: .allOld
            case .modifiedOld: .updatedOld
            case .allNew: .allNew
            case .modifiedNew: .updatedNew
            case nil: nil
            }
            let input = UpdateItemInput(tableName: update.tableName, key: update.key,
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
        let input = DeleteItemInput(tableName: delete.tableName, key: delete.key,
                                    returnValues: plan.returning == nil ? nil : .allOld,
                                    returnConsumedCapacity: capacity, conditionExpression: delete.conditionExpression,
                                    expressionAttributeNames: delete.expressionAttributeNames,
                                    expressionAttributeValues: delete.expressionAttributeValues,
                                    returnValuesOnConditionCheckFailure: delete.returnValuesOnConditionCheckFailure)
        let result = try deleteItem(input)
        return (result.oldItem.map { [$0] } ?? [], result.capacity)
    }
}
