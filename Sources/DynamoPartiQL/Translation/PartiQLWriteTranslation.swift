import DynamoAPI
import DynamoExpressions

/// A write statement translated into the engine's own operation: a transaction action
/// (`Put` for INSERT, `Update`, `Delete`, `ConditionCheck` for EXISTS) whose expressions carry
/// the statement's conditions, plus what the statement returns.
package struct PartiQLWritePlan: Sendable {
    /// The action, as TransactWriteItems takes it; single statements run it as PutItem,
    /// UpdateItem or DeleteItem.
    package var action: TransactWriteItem
    /// `RETURNING …` of an UPDATE or DELETE.
    package var returning: PartiQLReturning?
    /// Whether the statement is an INSERT (a failed condition means a duplicate key).
    package var isInsert: Bool
    /// The table the statement writes.
    package var tableName: String
}

extension PartiQLTranslator {
    /// Translates an INSERT, UPDATE, DELETE or `[NOT] EXISTS(SELECT …)` against the table's key
    /// schema.
    ///
    /// - Throws: DynamoDB's PartiQL `ValidationException`s: an incomplete key, a key of the wrong
    ///   type, a write on an index, an INSERT that is not a tuple, bad `SET_ADD`/`SET_DELETE`.
    package static func write(
        _ statement: PartiQLStatement, schema: PartiQLSchema, parameters: [AttributeValue],
        returnOnFailure: ReturnValuesOnConditionCheckFailure? = nil
    ) throws(DynamoError) -> PartiQLWritePlan {
        let binder = PartiQLBinder(parameters: parameters)
        let conditions = PartiQLConditions(binder: binder)
        var text = ExpressionText()
        switch statement {
        case .insert(let table, let index, let itemExpression):
            if index != nil { throw PartiQLMessages.indexWrite }
            if let (name, path, site) = Self.firstCall(in: itemExpression, path: nil) {
                throw PartiQLMessages.insertFunction(name, path: path, site.name)
            }
            guard case .m(let item)? = try binder.constant(itemExpression) else { throw PartiQLMessages.insertItemFormat }
            for key in schema.keys {
                guard let value = item[key.name] else { throw PartiQLMessages.keyAbsent(key.name) }
                guard value.typeDescriptor == key.type else { throw PartiQLMessages.keyType(key.name) }
            }
            let condition = "attribute_not_exists(\(text.name(schema.partitionKey.name)))"
            let put = Put(
                item: item, tableName: table, conditionExpression: condition,
                expressionAttributeNames: text.namesOrNil, returnValuesOnConditionCheckFailure: returnOnFailure)
            return PartiQLWritePlan(action: TransactWriteItem(put: put), isInsert: true, tableName: table)

        case .update(let table, let index, let clauses, let whereClause, let returning):
            if index != nil { throw PartiQLMessages.indexWrite }
            let keyed = try KeyedWhere(whereClause, schema: schema, binder: binder)
            var actions: [UpdateAction] = []
            for clause in clauses {
                actions.append(try updateAction(clause, conditions: conditions))
            }
            let updateExpression = text.update(actions)
            // UPDATE only changes an item that exists and meets the rest of the WHERE clause.
            var condition = Predicate.exists(DocumentPath(attribute: schema.partitionKey.name))
            if let rest = try restPredicate(keyed, conditions: conditions) { condition = .and(condition, rest) }
            let conditionExpression = text.predicate(condition)
            let update = Update(
                key: keyed.key, updateExpression: updateExpression, tableName: table,
                conditionExpression: conditionExpression, expressionAttributeNames: text.namesOrNil,
                expressionAttributeValues: text.valuesOrNil, returnValuesOnConditionCheckFailure: returnOnFailure)
            return PartiQLWritePlan(
                action: TransactWriteItem(update: update), returning: returning, isInsert: false,
                tableName: table)

        case .delete(let table, let index, let whereClause, let returning):
            if index != nil { throw PartiQLMessages.indexWrite }
            let keyed = try KeyedWhere(whereClause, schema: schema, binder: binder)
            // A missing item is deleted quietly; an existing one only if the rest holds.
            let conditionExpression = try restPredicate(keyed, conditions: conditions).map { rest in
                text.predicate(.or(.notExists(DocumentPath(attribute: schema.partitionKey.name)), rest))
            }
            let delete = Delete(
                key: keyed.key, tableName: table, conditionExpression: conditionExpression,
                expressionAttributeNames: text.namesOrNil, expressionAttributeValues: text.valuesOrNil,
                returnValuesOnConditionCheckFailure: returnOnFailure)
            return PartiQLWritePlan(
                action: TransactWriteItem(delete: delete), returning: returning, isInsert: false,
                tableName: table)

        case .exists(let select, let negated):
            if select.index != nil { throw PartiQLMessages.transactionIndexWrite }
            let keyed = try KeyedWhere(
                select.whereClause, schema: schema, binder: binder,
                incomplete: PartiQLMessages.existsShape)
            let keyPath = DocumentPath(attribute: schema.partitionKey.name)
            // A check needs a condition beyond the key, `[NOT] EXISTS` alike (DynamoDB Local's
            // front end; the service's words, eu-west-2 2026-10).
            guard let rest = try restPredicate(keyed, conditions: conditions) else { throw PartiQLMessages.existsShape }
            let condition: Predicate = negated ? .or(.notExists(keyPath), .not(rest)) : .and(.exists(keyPath), rest)
            let check = ConditionCheck(
                key: keyed.key, tableName: select.table, conditionExpression: text.predicate(condition),
                expressionAttributeNames: text.namesOrNil, expressionAttributeValues: text.valuesOrNil,
                returnValuesOnConditionCheckFailure: returnOnFailure)
            return PartiQLWritePlan(action: TransactWriteItem(conditionCheck: check), isInsert: false, tableName: select.table)

        case .select:
            throw PartiQLMessages.unsupportedOperation("SELECT")
        }
    }

    /// The first function call among an INSERT item's values and where it is inside its
    /// attribute's value (`""` for the value itself, `.x`, `[1]`); `path` is `nil` for the item.
    static func firstCall(in expression: PartiQLExpression, path: String?) -> (String, String, PartiQLCallSite)? {
        switch expression {
        case .call(let name, _, let site):
            return (name, path ?? "", site)
        case .tuple(let pairs):
            for pair in pairs {
                let key = if case .literal(.s(let name)) = pair.key { name } else { "" }
                if let found = firstCall(in: pair.value, path: path.map { "\($0).\(key)" } ?? "") { return found }
            }
            return nil
        case .list(let members), .bag(let members):
            for (position, member) in members.enumerated() {
                if let found = firstCall(in: member, path: "\(path ?? "")[\(position)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }

    /// The conjuncts beyond the key, AND-ed, as a predicate.
    static func restPredicate(_ keyed: KeyedWhere, conditions: PartiQLConditions) throws(DynamoError) -> Predicate? {
        var result: Predicate?
        for conjunct in keyed.rest {
            guard PartiQLConditions.isBoolean(conjunct) else { throw PartiQLMessages.whereNotBoolean }
            let predicate = try conditions.predicate(conjunct)
            result = result.map { .and($0, predicate) } ?? predicate
        }
        return result
    }

    /// One `SET path = value` or `REMOVE path`.
    private static func updateAction(
        _ clause: PartiQLUpdateClause,
        conditions: PartiQLConditions
    ) throws(DynamoError) -> UpdateAction {
        switch clause {
        case .remove(let path):
            return .remove(path)
        case .set(let path, .call(let name, let arguments, let site)) where name == "set_add" || name == "set_delete":
            let word = name == "set_add" ? "ADD" : "DELETE"
            guard arguments.count == 2 else { throw PartiQLMessages.setFunctionArguments(word, site.name) }
            guard case .path(let target) = arguments[0], target == path else {
                throw PartiQLMessages.setFunctionFirst(word, site.name)
            }
            let value = try conditions.binder.constant(arguments[1])
            switch value {
            case .ss?, .ns?, .bs?: break
            default: throw PartiQLMessages.setFunctionSecond(word, site.arguments[0])
            }
            return name == "set_add" ? .add(path, value!) : .delete(path, value!)
        case .set(let path, let expression):
            return .set(path, try updateOperand(expression, conditions: conditions))
        }
    }

    /// The value of a SET: a constant, a path, `+`/`-`, `list_append`, `if_not_exists`.
    private static func updateOperand(
        _ expression: PartiQLExpression,
        conditions: PartiQLConditions
    ) throws(DynamoError) -> Operand {
        switch expression {
        case .path(let path):
            return .path(path)
        case .binary("+", let a, let b):
            return .add(try updateOperand(a, conditions: conditions), try updateOperand(b, conditions: conditions))
        case .binary("-", let a, let b):
            return .subtract(try updateOperand(a, conditions: conditions), try updateOperand(b, conditions: conditions))
        case .binary(let op, _, _):
            throw PartiQLMessages.updateOperator(op)
        case .call("list_append", let arguments, _):
            guard arguments.count == 2 else { throw PartiQLMessages.operandCount("list_append", arguments.count) }
            return .listAppend(
                try updateOperand(arguments[0], conditions: conditions),
                try updateOperand(arguments[1], conditions: conditions))
        case .call("if_not_exists", let arguments, _):
            guard arguments.count == 2 else { throw PartiQLMessages.operandCount("if_not_exists", arguments.count) }
            guard case .path(let path) = arguments[0] else { throw PartiQLMessages.documentPathRequired("if_not_exists") }
            return .ifNotExists(path, try updateOperand(arguments[1], conditions: conditions))
        case .call(let name, _, let site):
            throw PartiQLMessages.unrecognizedFunction(name, site.name)
        case .missing:
            throw PartiQLMessages.missingCompared
        default:
            guard let value = try conditions.binder.constant(expression) else { throw PartiQLMessages.unexpectedTerm }
            return .value(value)
        }
    }
}
