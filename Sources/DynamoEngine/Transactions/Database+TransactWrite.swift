import DynamoAPI
import DynamoExpressions

/// What a committed TransactWriteItems did.
package struct TransactWriteResult: Sendable {
    /// Write capacity units per table (transactional writes cost twice the plain units).
    package var capacity: [String: ConsumedUnits]
    /// The item collections written per table name, for `ReturnItemCollectionMetrics=SIZE`.
    package var itemCollections: [String: [ItemCollectionMetric]] = [:]
    /// What a repeat of this call with its `ClientRequestToken` consumes, per table: a
    /// transactional read of each item the call wrote or checked (twice the strongly consistent
    /// read units of its size), as DynamoDB reports a replay (`ReadCapacityUnits` 2 for an item of
    /// 1.5 KB whose write cost 4: paritysuite, eu-west-2, 2026-06).
    package var replayCapacity: [String: ConsumedUnits] = [:]

    /// This result as a repeat of the call answers it: the same metrics, read capacity.
    var replayed: TransactWriteResult {
        var repeated = self
        repeated.capacity = replayCapacity
        return repeated
    }
}

/// One action of a transaction, checked and compiled before anything is read.
private struct PlannedAction {
    enum Kind {
        case check
        case put(json: [UInt8], size: Int, item: Item)
        case delete
        case update(UpdatePlan?, keyItem: Item)
    }

    var table: TableDefinition
    var requestedName: String
    var key: StoredKey
    var kind: Kind
    var condition: DynamoExpressions.Predicate?
    var returnsItemOnFailure: Bool
}

/// What makes two actions of one transaction the same item: its table's storage and its key.
private struct ActionTarget: Hashable {
    var storageID: Int64
    var key: StoredKey
}

extension Database {
    /// The most actions one transaction may hold.
    static let maximumTransactionActions = 100
    /// DynamoDB's limit on the aggregate size of the items in one transaction.
    static let maximumTransactionBytes = 4 * 1024 * 1024

    /// Applies up to 100 actions over any tables all or nothing, in one SQLite transaction.
    ///
    /// Every action is validated and its expressions compiled first (a bad request is a plain
    /// `ValidationException`); then, under the writer's lock, every condition is checked against
    /// the stored items, and if any fails nothing is written and the call throws
    /// `TransactionCanceledException` with one reason per action, in order.
    package func transactWriteItems(_ input: TransactWriteItemsInput, now: Double) throws -> TransactWriteResult {
        if let token = input.clientRequestToken {
            // The actions identify the request (by meaning, not by the order of a map's members);
            // asking for capacity or metrics does not change it.
            return try idempotency.run(token: token, request: CanonicalForm(input.transactItems), now: now) {
                try applyTransaction(input)
            }
        }
        return try applyTransaction(input)
    }

    private func applyTransaction(_ input: TransactWriteItemsInput) throws -> TransactWriteResult {
        let actions = try plan(input.transactItems)
        let tables = actions.map(\.table.name)
        if let conflicting = injectedConflicts.take(forAnyOf: tables) {
            try throwInjectedConflict(table: conflicting, actionTables: tables)
        }
        return try write { state in
            var reasons: [CancellationReason] = []
            var olds: [(json: [UInt8], size: Int)?] = []
            var oldItems: [Item?] = []
            var failed = false
            for action in actions {
                let store = itemStore(action.table, connection: state.connection)
                let old = try store.get(action.key)
                let oldItem = try old.map { try AttributeValue.decodeItem(bytes: $0.json) }
                olds.append(old)
                oldItems.append(oldItem)
                if let condition = action.condition, !condition.evaluate(oldItem ?? [:]) {
                    failed = true
                    reasons.append(
                        CancellationReason(
                            item: action.returnsItemOnFailure ? oldItem : nil,
                            code: "ConditionalCheckFailed",
                            message: "The conditional request failed"))
                } else {
                    reasons.append(CancellationReason(code: "None"))
                }
            }
            // Updates that cannot apply (a type error found only against the stored item) cancel too.
            var newItems: [(item: Item, size: Int)?] = Array(repeating: nil, count: actions.count)
            // An empty index key value fails the request instead of cancelling it.
            var emptyIndexKey: DynamoError?
            if !failed {
                for (position, action) in actions.enumerated() {
                    guard case .update(let plan, let keyItem) = action.kind else { continue }
                    do {
                        let base = oldItems[position] ?? keyItem
                        let updated = try plan?.apply(to: base) ?? base
                        let size = ItemSize.of(updated)
                        if size > ItemSize.maximum {
                            throw EngineMessages.updatedItemTooLarge
                        }
                        try ItemSize.checkNesting(updated)
                        if let error = action.table.updatedIndexKeyError(forItem: updated) { emptyIndexKey = error }
                        if let error = action.table.indexKeyTypeError(forItem: updated) { throw error }
                        newItems[position] = (updated, size)
                    } catch let error as DynamoError {
                        failed = true
                        reasons[position] = CancellationReason(code: "ValidationError", message: error.message)
                    }
                }
            }
            if let emptyIndexKey { throw emptyIndexKey }
            if failed { throw DynamoError.transactionCanceled(reasons) }
            var capacity: [String: ConsumedUnits] = [:]
            var replayCapacity: [String: ConsumedUnits] = [:]
            for (position, action) in actions.enumerated() {
                let store = try itemStore(action.table, in: state)
                let old = olds[position]
                var written = 0
                var units = ConsumedUnits()
                switch action.kind {
                case .check:
                    break
                case .put(let json, let size, let item):
                    units = try store.put(action.key, json: json, size: size, replacing: old?.json, item: item)
                    try recordChange(&state, table: action.table, store: store, key: action.key, old: old, new: (json, size))
                    written = size
                case .delete:
                    if let old {
                        units = try store.delete(action.key, removing: old.json)
                        try recordChange(&state, table: action.table, store: store, key: action.key, old: old, new: nil)
                    }
                case .update:
                    let (item, size) = newItems[position]!
                    let json = ItemJSON.encode(item)
                    units = try store.put(action.key, json: json, size: size, replacing: old?.json, item: item)
                    try recordChange(&state, table: action.table, store: store, key: action.key, old: old, new: (json, size))
                    written = size
                }
                // Transactions cost twice the plain units, on the table and on its indexes.
                if case .check = action.kind {
                    units.table = Capacity.readUnits(size: old?.size ?? 0, consistent: true)
                } else {
                    units.table = Capacity.writeUnits(size: max(written, old?.size ?? 0))
                }
                units.reportedAs = .write
                capacity[action.requestedName, default: ConsumedUnits()].add(units.transactional)
                // Only a call with a token can be repeated.
                if input.clientRequestToken != nil {
                    var replay = ConsumedUnits(table: Capacity.readUnits(size: max(written, old?.size ?? 0), consistent: true) * 2)
                    replay.reportedAs = .read
                    replayCapacity[action.requestedName, default: ConsumedUnits()].add(replay)
                }
            }
            var result = TransactWriteResult(capacity: capacity)
            result.replayCapacity = replayCapacity
            let writes = actions.filter { if case .check = $0.kind { false } else { true } }
            result.itemCollections = try itemCollections(
                of: writes.map { ($0.requestedName, $0.table, $0.key) },
                mode: input.returnItemCollectionMetrics, connection: state.connection)
            return result
        }
    }

    /// Validates every action and compiles its expressions, in request order.
    private func plan(_ items: [TransactWriteItem]) throws -> [PlannedAction] {
        if items.count > Self.maximumTransactionActions {
            throw EngineMessages.memberHaveLengthLessThan
        }
        var actions: [PlannedAction] = []
        var seen = Set<ActionTarget>()
        // A key of the wrong shape (attributes missing, a wrong type) cancels the transaction with
        // a `ValidationError` reason at its position, once every action passed the request-level
        // checks; an empty or oversized key value fails the request (as DynamoDB does).
        var keyErrors: [Int: DynamoError] = [:]
        // DynamoDB reads every action (its expressions, a Put's nesting depth) in request order
        // before it looks up any table: a malformed or unused expression on a later action wins
        // over a missing table on an earlier one.
        var compiledActions: [CompiledExpressions] = []
        for item in items {
            compiledActions.append(try Self.readAction(item))
        }
        // What each action carries, measured once: the whole item for a Put, the key otherwise.
        let sizes = items.map { item in
            ItemSize.of(item.put?.item ?? item.update?.key ?? item.delete?.key ?? item.conditionCheck?.key ?? [:])
        }
        // One lookup per table name: a transaction usually writes one or two tables.
        var tables: [String: TableDefinition] = [:]
        func table(named name: String) throws -> TableDefinition {
            if let known = tables[name] { return known }
            let found = try self.table(named: name)
            tables[name] = found
            return found
        }
        for (position, item) in items.enumerated() {
            let compiled = compiledActions[position]
            let action: PlannedAction
            if let check = item.conditionCheck {
                let table = try table(named: check.tableName)
                if let error = table.keyShapeError(fromKey: check.key) {
                    keyErrors[position] = error
                    continue
                }
                action = PlannedAction(
                    table: table, requestedName: check.tableName,
                    key: try table.storedKey(fromKey: check.key), kind: .check,
                    condition: compiled.condition,
                    returnsItemOnFailure: check.returnValuesOnConditionCheckFailure == .allOld)
            } else if let put = item.put {
                let table = try table(named: put.tableName)
                // An index key of the wrong type cancels too (a `ValidationError` reason); an
                // empty one fails the request when the item is written.
                if let error = table.keyShapeError(forItem: put.item) ?? table.indexKeyTypeError(forItem: put.item) {
                    keyErrors[position] = error
                    continue
                }
                let key = try table.storedKey(forItem: put.item)
                let size = sizes[position]
                if size > ItemSize.maximum {
                    throw EngineMessages.itemTooLarge
                }
                action = PlannedAction(
                    table: table, requestedName: put.tableName, key: key,
                    kind: .put(json: ItemJSON.encode(put.item), size: size, item: put.item),
                    condition: compiled.condition,
                    returnsItemOnFailure: put.returnValuesOnConditionCheckFailure == .allOld)
            } else if let delete = item.delete {
                let table = try table(named: delete.tableName)
                if let error = table.keyShapeError(fromKey: delete.key) {
                    keyErrors[position] = error
                    continue
                }
                action = PlannedAction(
                    table: table, requestedName: delete.tableName,
                    key: try table.storedKey(fromKey: delete.key), kind: .delete,
                    condition: compiled.condition,
                    returnsItemOnFailure: delete.returnValuesOnConditionCheckFailure == .allOld)
            } else {
                let update = item.update!
                let table = try table(named: update.tableName)
                try compiled.checkKeyAttributes(table.keyAttributes.map(\.name))
                if let error = table.keyShapeError(fromKey: update.key) {
                    keyErrors[position] = error
                    continue
                }
                action = PlannedAction(
                    table: table, requestedName: update.tableName,
                    key: try table.storedKey(fromKey: update.key),
                    kind: .update(compiled.update, keyItem: update.key),
                    condition: compiled.condition,
                    returnsItemOnFailure: update.returnValuesOnConditionCheckFailure == .allOld)
            }
            guard seen.insert(ActionTarget(storageID: action.table.storageID, key: action.key)).inserted else {
                throw EngineMessages.transactionRequestCannotIncludeMultiple
            }
            actions.append(action)
        }
        if sizes.reduce(0, +) > Self.maximumTransactionBytes {
            // The API reference's wording: no captured DynamoDB response for this limit was found.
            throw EngineMessages.aggregateSizeItemsTransactionCannot
        }
        if !keyErrors.isEmpty {
            throw DynamoError.transactionCanceled(validationErrors: keyErrors, actions: items.count)
        }
        return actions
    }

    /// The request-level reading of one action: exactly one operation, its expressions compiled
    /// (syntax, names and values), a Put's item named and within DynamoDB's nesting depth, and
    /// the other actions' keys within it.
    private static func readAction(_ item: TransactWriteItem) throws -> CompiledExpressions {
        let present = [item.conditionCheck != nil, item.put != nil, item.delete != nil, item.update != nil]
        if !present.contains(true) {
            // us-east-1's sentence (2026); some regions now send a constraint-style message.
            throw EngineMessages.invalidRequestTransactWriteRequestShouldContain
        }
        guard present.filter({ $0 }).count == 1 else {
            throw EngineMessages.transactItemsOnlyContainOneCheck
        }
        var expressions: ExpressionInput
        if let check = item.conditionCheck {
            expressions = ExpressionInput(.putItem)
            expressions.conditionExpression = check.conditionExpression
            expressions.names = check.expressionAttributeNames
            expressions.values = check.expressionAttributeValues
        } else if let put = item.put {
            expressions = ExpressionInput(.putItem)
            expressions.conditionExpression = put.conditionExpression
            expressions.names = put.expressionAttributeNames
            expressions.values = put.expressionAttributeValues
        } else if let delete = item.delete {
            expressions = ExpressionInput(.deleteItem)
            expressions.conditionExpression = delete.conditionExpression
            expressions.names = delete.expressionAttributeNames
            expressions.values = delete.expressionAttributeValues
        } else {
            let update = item.update!
            expressions = ExpressionInput(.updateItem)
            expressions.updateExpression = update.updateExpression
            expressions.conditionExpression = update.conditionExpression
            expressions.names = update.expressionAttributeNames
            expressions.values = update.expressionAttributeValues
        }
        let compiled = try ExpressionCompiler.compile(expressions)
        if let put = item.put { try ItemSize.checkNamesAndNesting(put.item) }
        // A key nested past the limit is refused here, in action order, before any later
        // action's problem (paritysuite's deepRequests test, 2026-10-09).
        if let key = item.conditionCheck?.key ?? item.delete?.key ?? item.update?.key { try ItemSize.checkNesting(key) }
        return compiled
    }
}

extension DynamoError {
    /// DynamoDB's `TransactionCanceledException`: the reasons, one per action in request order,
    /// and their codes listed in the message.
    static func transactionCanceled(_ reasons: [CancellationReason]) -> DynamoError {
        let codes = reasons.map { $0.code ?? "None" }.joined(separator: ", ")
        return EngineMessages.transactionCancelledPleaseReferCancellation(codes: codes, reasons: reasons)
    }
}

extension DynamoError {
    /// The cancellation of a transaction whose actions at some positions failed validation: a
    /// `ValidationError` reason there (with the error's message), `None` for the others.
    static func transactionCanceled(validationErrors: [Int: DynamoError], actions: Int) -> DynamoError {
        transactionCanceled(
            (0..<actions).map { position in
                validationErrors[position].map { CancellationReason(code: "ValidationError", message: $0.message) }
                    ?? CancellationReason(code: "None")
            })
    }
}
