import DynamoAPI
import DynamoClient
import Foundation
import Logging

extension ObjectContext {
    /// Stores every change: validated first (every problem reported), then written as one
    /// `TransactWriteItems` when it fits (100 actions, 4 MB), else as several in dependency
    /// order. Conflicting rows are resolved by ``mergePolicy``. A child context pushes its
    /// changes into its parent instead, without I/O.
    ///
    /// - Throws: ``ValidationError`` (nothing written); ``MergeConflictError`` under
    ///   ``MergePolicy/error`` (nothing written by the failing transaction);
    ///   ``PartialSaveError`` when an earlier transaction of a split save was stored; DynamoDB's
    ///   errors (`DynamoError`) otherwise.
    public func save() async throws {
        try await processPendingChanges()
        try validate()
        if let parent {
            try push(into: parent)
            return
        }
        if replay == nil, let offline = store.offline {
            try saveLocally(to: offline)
            return
        }
        var changes = StoreChanges()
        changes.origin = ObjectIdentifier(self)
        var stored: [ObjectID] = []
        var resolutionRounds = 0
        planning: while true {
            let transactions = transactions(for: try planWrites())
            for (position, transaction) in transactions.enumerated() {
                do {
                    var conflicts = try await execute(transaction)
                    if let replay, !conflicts.isEmpty {
                        // A replay after a lost answer: the rows are what this write makes.
                        if conflicts.allSatisfy(\.isOwnWrite) {
                            conflicts = []
                        } else {
                            conflicts = try replay.resolving(conflicts, in: self)
                        }
                    }
                    if conflicts.isEmpty {
                        // Stored inserts leave the inserted list in one pass (not one each).
                        defer { insertedList.removeAll { $0.lifecycle == .stored } }
                        for action in transaction { try markStored(action, in: &changes) }
                        stored += transaction.map(\.object.objectID)
                        continue
                    }
                    resolutionRounds += 1
                    guard mergePolicy != .error, resolutionRounds <= 5 else { throw MergeConflictError(conflicts: conflicts.map(\.conflict)) }
                    for conflict in conflicts { try resolve(conflict, in: &changes) }
                    // Resolving may change destinations not loaded yet, and bring new
                    // destinations to deleted objects' delete rules.
                    try await processPendingChanges()
                    continue planning
                } catch {
                    store.publish(changes)
                    guard !stored.isEmpty else { throw error }
                    let rest = transactions[position...].flatMap { $0.map(\.object.objectID) }
                    throw PartialSaveError(stored: stored, notStored: rest, underlying: error)
                }
            }
            break
        }
        for object in insertedList where object.deleteMark { forgetDeleted(object) }
        store.publish(changes)
        undoManager?.closeGroup()
    }

    /// Ends the current undo event and applies delete rules (nullify, cascade) of deleted
    /// objects, loading the faults that needs (deleted objects and objects whose relationships
    /// were changed from the other side).
    ///
    /// With an ``OfflineStore``, when DynamoDB cannot be reached, a fault the device never read
    /// (neither cached nor changed by a pending save) stays a fault: a deleted one's delete
    /// rules and a changed one's relationship changes are applied when the save is replayed
    /// (``ObjectContext/save()`` records them as changes only).
    public func processPendingChanges() async throws {
        var handled: Set<ObjectIdentifier> = []
        var unread: Set<ObjectIdentifier> = []
        while true {
            let deletions = deletedList.filter { !handled.contains(ObjectIdentifier($0)) }
            guard !deletions.isEmpty else { break }
            unread.formUnion(try await fireFaultsKeepingUnread(deletions))
            for object in deletions {
                handled.insert(ObjectIdentifier(object))
                applyDeleteRules(object)
            }
        }
        // Loading a fault resolves its deltas, which may record deltas on other faults (a
        // to-one moved away from an owner not loaded yet): repeat until none is left.
        while case let changedFaults = registered.values.filter({
            $0.isFault && !$0.pending.isEmpty && !unread.contains(ObjectIdentifier($0))
        }), !changedFaults.isEmpty {
            unread.formUnion(try await fireFaultsKeepingUnread(changedFaults))
        }
        undoManager?.closeGroup()
    }

    private func applyDeleteRules(_ object: ManagedObject) {
        // A fault left unread offline has its rules applied by the replay.
        guard !object.isDeletedInStore, !object.isFault else { return }
        for relationship in object.entity.relationships {
            let destinations = object.relatedObjects(relationship.name)
            switch relationship.deleteRule {
            case .nullify:
                guard let inverse = relationship.inverse else { continue }
                for destination in destinations where !destination.deleteMark {
                    destination.primitiveRemove(object, from: inverse)
                }
            case .cascade:
                for destination in destinations where !destination.deleteMark { delete(destination) }
            case .deny, .noAction:
                continue
            }
        }
    }

    /// Checks every object a save would write; throws all problems at once.
    func validate() throws {
        var issues: [ValidationError.Issue] = []
        let saving =
            insertedList.filter { !$0.deleteMark }
            + registered.values.filter {
                $0.lifecycle == .stored && !$0.deleteMark && !$0.isFault && !$0.isDeletedInStore && !$0.changedValues.isEmpty
            }
        for object in saving {
            issues += modelIssues(object)
            let rules = [{ try $0.validateForSave() }] + (validationRules[object.entity.name] ?? [])
            for rule in rules {
                do { try rule(object) } catch let error as ValidationError {
                    issues += error.issues
                } catch {
                    issues.append(.init(objectID: object.objectID, message: "\(error)"))
                }
            }
        }
        var insertedIDs: Set<ObjectID> = []
        for object in insertedList where !object.deleteMark && !insertedIDs.insert(object.objectID).inserted {
            issues.append(.init(objectID: object.objectID, message: "two inserted objects have this key"))
        }
        // A deleted fault left unread offline meets its deny rules when the save is replayed.
        for object in deletedList where object.lifecycle == .stored && !object.isDeletedInStore && !object.isFault {
            for relationship in object.entity.relationships where relationship.deleteRule == .deny {
                let remaining = object.relatedObjects(relationship.name).filter { !$0.deleteMark }
                if !remaining.isEmpty {
                    issues.append(
                        .init(
                            objectID: object.objectID, property: relationship.name,
                            message: "cannot delete: the deny rule forbids it while \(remaining.count) destination(s) remain"))
                }
            }
        }
        if !issues.isEmpty { throw ValidationError(issues: issues) }
    }

    private func modelIssues(_ object: ManagedObject) -> [ValidationError.Issue] {
        let entity = object.entity
        let id = object.objectID
        var issues: [ValidationError.Issue] = []
        let item = currentItem(of: object)
        for (name, problem) in object.invalidValues.sorted(by: { $0.key < $1.key }) {
            issues.append(.init(objectID: id, property: name, message: problem))
        }
        for attribute in entity.keyAttributes {
            if item[attribute.storageName] == .s("") || item[attribute.storageName] == .b([]) {
                issues.append(.init(objectID: id, property: attribute.name, message: "a key must not be empty"))
            }
        }
        for attribute in entity.attributes where attribute.name != entity.versionAttribute {
            guard let value = item[attribute.storageName] else {
                if !attribute.isOptional && !attribute.type.isSet {
                    issues.append(.init(objectID: id, property: attribute.name, message: "a value is required"))
                }
                continue
            }
            if let message = Self.rangeProblem(value, attribute.range) {
                issues.append(.init(objectID: id, property: attribute.name, message: message))
            }
        }
        if let storedID = object.lifecycle == .stored ? object.storedID : object.obtainedID {
            for attribute in entity.keyAttributes where item[attribute.storageName] != storedID.key[attribute.storageName] {
                issues.append(.init(objectID: storedID, property: attribute.name, message: StoreError.keyChanged(storedID).description))
            }
        }
        for relationship in entity.relationships {
            let count = currentIDs(of: object, relationship.name).count
            if count < relationship.minCount {
                issues.append(
                    .init(
                        objectID: id, property: relationship.name,
                        message: relationship.isToMany
                            ? "at least \(relationship.minCount) destination(s) required; has \(count)" : "a destination is required"))
            }
            if let maximum = relationship.maxCount, relationship.isToMany, count > maximum {
                issues.append(.init(objectID: id, property: relationship.name, message: "at most \(maximum) destination(s) allowed; has \(count)"))
            }
        }
        return issues
    }

    /// Why a value is outside its attribute's range, if it is.
    private static func rangeProblem(_ value: AttributeValue, _ range: ClosedRange<Double>?) -> String? {
        guard let range else { return nil }
        let (measure, what): (Double?, String) =
            switch value {
            case .n(let number): (Double(number.description), "value")
            case .s(let text): (Double(text.count), "length")
            case .b(let bytes): (Double(bytes.count), "length")
            default: (nil, "")
            }
        guard let measure, !range.contains(measure) else { return nil }
        return "\(what) must be between \(text(range.lowerBound)) and \(text(range.upperBound)); is \(text(measure))"
    }

    private static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// Sends one transaction, retrying `TransactionConflict` cancellations; returns the
    /// conflicts (failed conditions) it met, empty when it was stored.
    private func execute(_ transaction: [WriteAction]) async throws -> [Conflict] {
        // A replay sends one action as a transaction too: its kept request token is what makes a
        // retry after a lost answer apply once, whatever another device wrote meanwhile.
        if transaction.count == 1, let write = transaction.first, replay == nil { return try await executeSingle(write) }
        // Kept across `TransactionConflict` retries: a cancelled transaction stored nothing.
        var token = replay?.nextToken() ?? UUID().uuidString
        var attempt = 1
        while true {
            do {
                _ = try await store.client.send(
                    body: Self.transactWriteItemsBody(transaction, token: token), target: TransactWriteItemsInput.target,
                    output: TransactWriteItemsOutput.self)
                return []
            } catch let error as DynamoError where error.code == .idempotentParameterMismatch && replay != nil {
                // The replay planned another request than the lost one (it met rows its first
                // try wrote): send it under a new token; its conditions then tell what was stored.
                token = replay?.nextToken() ?? UUID().uuidString
            } catch let error as DynamoError where error.code == .transactionCanceled {
                let reasons = error.cancellationReasons ?? []
                let conflicts = zip(transaction, reasons).compactMap { action, reason in
                    reason.code == "ConditionalCheckFailed" ? Conflict(action: action, storeItem: reason.item, context: self) : nil
                }
                if !conflicts.isEmpty { return conflicts }
                let retryable = reasons.contains { $0.code == "TransactionConflict" }
                guard retryable, attempt < store.conflictRetry.maximumAttempts else { throw error }
                store.logger.debug("transaction conflict; retrying", metadata: ["attempt": .stringConvertible(attempt)])
                try await store.conflictRetry.sleep(store.conflictRetry.backoff(attempt: attempt))
                attempt += 1
            }
        }
    }

    /// The `TransactWriteItems` request of a transaction from its actions' JSON (encoded once,
    /// when they were sized), asking for `ConsumedCapacity` `TOTAL`, with a fresh
    /// `ClientRequestToken` (an outbox entry's replay keeps its own).
    static func transactWriteItemsBody(_ transaction: [WriteAction], token: String = UUID().uuidString) -> [UInt8] {
        var body = Array(#"{"TransactItems":["#.utf8)
        body.reserveCapacity(transaction.reduce(120) { $0 + $1.size + 1 })
        for (position, action) in transaction.enumerated() {
            if position > 0 { body.append(UInt8(ascii: ",")) }
            body += action.json
        }
        body += #"],"ReturnConsumedCapacity":"TOTAL","ClientRequestToken":""#.utf8
        body += token.utf8
        body += #""}"#.utf8
        return body
    }

    /// Makes an object's context state match what a stored action wrote; a stored insert
    /// stays in the inserted list (the caller removes them all at once).
    func markStored(_ action: WriteAction, in changes: inout StoreChanges) throws {
        let object = action.object
        switch action.kind {
        case .insert:
            if let replaced = action.replaced {
                forgetDeleted(replaced)
                changes.updated.insert(object.objectID)
            } else {
                changes.inserted.insert(object.objectID)
            }
            registerAsStored(object)
        case .update:
            changes.updated.insert(object.objectID)
            // A fault written only for its partners' links stays a fault.
            if object.isFault { return }
        case .check:
            return
        case .delete:
            forgetDeleted(object)
            changes.deleted.insert(object.objectID)
            return
        }
        if let item = action.storedItem {
            object.snapshot = try Snapshot(item: item, entity: object.entity, model: store.model, checked: false)
        }
        if action.migrates || action.kind == .insert { object.unmigrated = nil }
        clearSavedChanges(object)
    }

    /// Drops pending attribute changes now in the snapshot; relationship values are kept as
    /// objects (equal to the snapshot) so destinations not registered yet stay the same objects.
    func clearSavedChanges(_ object: ManagedObject) {
        for (name, change) in object.pending {
            if case .attribute = change { object.pending[name] = nil }
        }
    }

    /// Turns an inserted object into a stored, registered one.
    func adoptAsStored(_ object: ManagedObject) {
        insertedList.removeAll { $0 === object }
        registerAsStored(object)
    }

    /// Makes an object stored and registered, leaving the inserted list as it is.
    private func registerAsStored(_ object: ManagedObject) {
        let id = object.objectID.permanent
        object.storedID = id
        object.lifecycle = .stored
        registered[id] = object
    }

    /// Removes a deleted object from the context after its row is gone.
    func forgetDeleted(_ object: ManagedObject) {
        deletedList.removeAll { $0 === object }
        insertedList.removeAll { $0 === object }
        if let id = object.storedID, registered[id] === object { registered[id] = nil }
        object.lifecycle = .invalid
    }
}

/// A failed condition of one action, with the row the store holds (`ALL_OLD`).
struct Conflict {
    let action: WriteAction
    let storeItem: Item?
    let conflict: MergeConflict

    init(action: WriteAction, storeItem: Item?, context: ObjectContext) {
        self.action = action
        let object = action.object
        let entity = object.entity
        // A tombstone is a row gone.
        let storeItem = storeItem.flatMap { entity.isTombstone($0) ? nil : $0 }
        self.storeItem = storeItem
        let ours = context.currentItem(of: object)
        let theirs = storeItem ?? [:]
        let versionName = entity.versionStorageName
        var differences: [MergeConflict.Difference] = []
        let names = entity.attributes.map { ($0.name, $0.storageName) } + entity.relationships.map { ($0.name, $0.storageName) }
        for (name, storageName) in names where storageName != versionName && ours[storageName] != theirs[storageName] {
            differences.append(.init(property: name, objectValue: ours[storageName], storeValue: theirs[storageName]))
        }
        let storeVersion = versionName.flatMap { theirs[$0] }.flatMap { try? Int64(storedValue: $0) }
        conflict = MergeConflict(
            objectID: object.objectID, objectVersion: object.snapshot?.version(of: entity), storeVersion: storeVersion,
            existsInStore: storeItem != nil, differences: storeItem == nil && action.kind == .delete ? [] : differences)
    }
}
