import DynamoAPI
import DynamoClient
import DynamoExpressions
import Foundation
import Logging

/// What the private context replaying one outbox entry keeps: the entry's request tokens and
/// the rows its conflicts met.
final class OutboxReplayState {
    private let base: String
    private var sent = 0
    /// The store's row (`ALL_OLD`) at each object's first conflict (`nil`: the row was gone),
    /// in this replay or an earlier one of the entry.
    private(set) var conflicts: [ObjectID: Item?]
    /// The rows this replay's conflicts met, as DynamoDB held them.
    private(set) var met: [ObjectID: Item?] = [:]
    /// The row each object's last resolution in this replay was made against: its first
    /// conflict's kept row, or a row DynamoDB held when the write resolved against that one
    /// met another (a device wrote in between). What the replay reports as rolled back is
    /// this row unchanged.
    private(set) var resolvedAgainst: [ObjectID: Item?] = [:]
    /// The objects whose conflict an earlier replay met and this one has not met again.
    private var earlier: Set<ObjectID>
    /// Keeps new first conflicts on the device before they are resolved.
    private let keep: ([ObjectID: Item?]) throws -> Void

    /// - Parameters:
    ///   - token: the entry's request token.
    ///   - earlierConflicts: the rows earlier replays of the entry met at first conflicts.
    ///   - keep: stores new first conflicts durably (before the replay resolves them).
    init(token: String, earlierConflicts: [ObjectID: Item?] = [:], keep: @escaping ([ObjectID: Item?]) throws -> Void = { _ in }) {
        base = token
        conflicts = earlierConflicts
        earlier = Set(earlierConflicts.keys)
        self.keep = keep
    }

    /// The `ClientRequestToken` of the entry's next transaction: the entry's token and the
    /// transaction's place, so a replay after a lost answer sends the same token again.
    func nextToken() -> String {
        defer { sent += 1 }
        return "\(base)-\(sent)"
    }

    /// The conflicts as the replay resolves them: an object's first conflict in this replay,
    /// when an earlier replay of the entry already met one, is resolved against the row that
    /// replay met (what DynamoDB holds now may be that replay's own resolved write, whose
    /// answer was lost); a new first conflict is kept on the device before it is resolved.
    func resolving(_ found: [Conflict], in context: ObjectContext) throws -> [Conflict] {
        var new: [ObjectID: Item?] = [:]
        let resolved = found.map { conflict -> Conflict in
            let id = conflict.action.object.objectID
            if met[id] == nil { met[id] = .some(conflict.storeItem) }
            if earlier.remove(id) != nil, let row = conflicts[id] {
                resolvedAgainst[id] = .some(row)
                return Conflict(action: conflict.action, storeItem: row, context: context)
            }
            if conflicts[id] == nil {
                conflicts[id] = .some(conflict.storeItem)
                new[id] = .some(conflict.storeItem)
            }
            resolvedAgainst[id] = .some(conflict.storeItem)
            return conflict
        }
        if !new.isEmpty { try keep(new) }
        return resolved
    }
}

extension Conflict {
    /// Whether the failed condition met the row this very write makes (an earlier try was
    /// stored and its answer lost): a write's whole item, with its version, or a delete's
    /// missing row.
    var isOwnWrite: Bool {
        switch action.kind {
        case .delete: return storeItem == nil
        case .check: return false
        case .insert, .update:
            guard let storeItem, let written = action.storedItem else { return false }
            return ObjectContext.sameModelValues(storeItem, written, of: action.object.entity, includingVersion: true)
        }
    }
}

extension ObjectContext {
    /// The device's copy, for reads: not in a replay's private context, which reads DynamoDB.
    var offlineReads: OfflineStore? { replay == nil ? store.offline : nil }

    /// Whether two items hold the same model values (sets compared as sets); the version too
    /// when asked.
    static func sameModelValues(_ lhs: Item, _ rhs: Item, of entity: EntityDescription, includingVersion: Bool) -> Bool {
        let names = entity.attributes.map(\.storageName) + entity.relationships.map(\.storageName)
        return names.allSatisfy { name in
            if !includingVersion && name == entity.versionStorageName { return true }
            return normalized(lhs[name]) == normalized(rhs[name])
        }
    }

    private static func normalized(_ value: AttributeValue?) -> AttributeValue? {
        switch value {
        case .ss(let strings)?: .ss(strings.sorted())
        case .ns(let numbers)?: .ns(numbers.sorted())
        case .bs(let binaries)?: .bs(binaries.sorted { $0.lexicographicallyPrecedes($1) })
        default: value
        }
    }

    // MARK: - Saving to the device

    /// A save with the device's copy: the planned writes become one outbox entry (what each
    /// object read and what it becomes), committed with the rows' new images in one fsync'd
    /// SQLite transaction; the context then holds the objects as saved.
    func saveLocally(to offline: OfflineStore) throws {
        let actions = try planWrites()
        // A read row is in the current model's form: it carries the current model version, so
        // the replay does not migrate it again.
        let storedItem = { (object: ManagedObject) throws -> Item in
            var item = try self.storedItem(of: object)
            if let versioning = self.store.modelVersioning { item[versioning.attributeName] = .n(DynamoNumber(versioning.version)) }
            return item
        }
        var records: [OutboxRecord] = []
        var tables: [String: String] = [:]
        for action in actions {
            let object = action.object
            let entity = object.entity
            tables[entity.name] = entity.tableName
            let key = ItemText.key(object.objectID.key)
            if object.isFault {
                // Never read on the device: only what changed, applied to the row on replay.
                if let record = deltaRecord(of: object, deleted: action.kind == .delete) { records.append(record) }
                continue
            }
            switch action.kind {
            case .insert:
                let read = try action.replaced.map(storedItem)
                records.append(
                    OutboxRecord(
                        entity: entity.name, key: key, kind: read == nil ? .insert : .replace, read: read.map(ItemText.item),
                        after: action.storedItem.map(ItemText.item)))
            case .update:
                var record = OutboxRecord(
                    entity: entity.name, key: key, kind: .update, read: ItemText.item(try storedItem(object)),
                    after: action.storedItem.map(ItemText.item))
                record.readRaw = object.unmigrated.map { ItemText.item($0.raw) }
                records.append(record)
            case .delete:
                records.append(
                    OutboxRecord(
                        entity: entity.name, key: key, kind: .delete, read: ItemText.item(try storedItem(object)), after: nil))
            case .check:
                guard !object.isFault else { continue }
                let read = ItemText.item(try storedItem(object))
                records.append(OutboxRecord(entity: entity.name, key: key, kind: .check, read: read, after: read))
            }
        }
        if !records.isEmpty { try offline.commit(records, tables: tables, policy: mergePolicy) }
        var changes = StoreChanges()
        changes.origin = ObjectIdentifier(self)
        for action in actions {
            try markStored(action, in: &changes)
            // The delta is in the outbox now; the fault reads it from there when it fires.
            if action.object.isFault { action.object.pending = [:] }
        }
        insertedList.removeAll { $0.lifecycle == .stored }
        for object in insertedList where object.deleteMark { forgetDeleted(object) }
        store.publish(changes)
        undoManager?.closeGroup()
    }

    /// The ``OutboxRecord/Kind/delta`` record of a fault the device never read: its deletion,
    /// or the destinations its relationships gained and lost (`nil` when it changed nothing
    /// itself: its partners' records carry the links).
    private func deltaRecord(of object: ManagedObject, deleted: Bool) -> OutboxRecord? {
        let entity = object.entity
        var record = OutboxRecord(entity: entity.name, key: ItemText.key(object.objectID.key), kind: .delta, read: nil, after: nil)
        record.changesFrom = nil
        guard !deleted else { return record }
        var links: [String: [String: Bool]] = [:]
        for (name, change) in object.pending {
            guard case .delta(let added, let removed) = change else { continue }
            for destination in removed { links[name, default: [:]][ItemText.key(destination.objectID.key)] = false }
            for destination in added { links[name, default: [:]][ItemText.key(destination.objectID.key)] = true }
        }
        guard !links.isEmpty else { return nil }
        record.links = links
        return record
    }

    /// A row with the relationship changes of pending delta saves applied in save order (read
    /// your writes of saves that changed the row without reading it): destinations unlinked
    /// first, then linked (a to-one takes the one linked).
    func applying(_ deltas: [[String: [String: Bool]]], to item: Item, entity: EntityDescription) throws -> Item {
        var item = item
        var links = try Snapshot(item: item, entity: entity, model: store.model, checked: false).relationships
        for delta in deltas {
            for (name, changes) in delta.sorted(by: { $0.key < $1.key }) {
                guard let relationship = entity.relationship(named: name) else { continue }
                let destination = try store.model.destination(of: relationship, in: entity)
                var ids = links[name] ?? []
                for (keyText, linked) in changes.sorted(by: { $0.key < $1.key }) where !linked {
                    ids.remove(ObjectID(entityName: destination.name, key: try ItemText.decode(keyText)))
                }
                for (keyText, linked) in changes.sorted(by: { $0.key < $1.key }) where linked {
                    if !relationship.isToMany { ids = [] }
                    ids.insert(ObjectID(entityName: destination.name, key: try ItemText.decode(keyText)))
                }
                links[name] = ids
                item[relationship.storageName] = try relationshipValue(ids, for: relationship, in: entity)
            }
        }
        return item
    }

    // MARK: - Reading through the device

    /// The rows of objects as the device sees them: a pending save's image first (read your
    /// writes), else DynamoDB (the rows are cached as they arrive, rows found gone leave the
    /// cache), else, when DynamoDB cannot be reached, the cached row; with the relationship
    /// changes of pending saves that changed the row unread applied. `nil`: no row.
    ///
    /// - Parameter keepingUnread: leave out the rows that cannot be read instead of throwing.
    /// - Throws: the transport's error when DynamoDB cannot be reached and a row is not cached.
    func localRows(of ids: [ObjectID], offline: OfflineStore, keepingUnread: Bool = false) async throws -> [ObjectID: Item?] {
        var result: [ObjectID: Item?] = [:]
        var remote: [ObjectID] = []
        var cached: [ObjectID: Item?] = [:]
        var deltas: [ObjectID: [[String: [String: Bool]]]] = [:]
        for (table, tableIDs) in Dictionary(grouping: ids, by: { store.model.entity(named: $0.entityName)?.tableName ?? "" }) {
            let tableDeltas = try offline.pendingDeltas(table: table)
            for id in tableIDs { deltas[id] = tableDeltas[ItemText.key(id.key)] }
            for (id, row) in zip(tableIDs, try offline.localRows(table: table, keys: tableIDs.map(\.key))) {
                switch row {
                case .pending(let image):
                    result[id] = .some(image)
                    // A pending image already holds the deltas saved before it.
                    deltas[id] = nil
                case .cached(let item):
                    cached[id] = item
                    remote.append(id)
                case .unknown: remote.append(id)
                }
            }
        }
        guard !remote.isEmpty else { return result }
        do {
            let found = try await networkRows(remote)
            for (table, tableIDs) in Dictionary(grouping: remote, by: { store.model.entity(named: $0.entityName)?.tableName ?? "" }) {
                guard let entity = tableIDs.first.flatMap({ store.model.entity(named: $0.entityName) }) else { continue }
                let keyNames = entity.keyAttributes.map(\.storageName)
                try offline.remember(
                    table: table, items: tableIDs.compactMap { found[$0] }, keyNames: keyNames,
                    gone: tableIDs.filter { found[$0] == nil }.map(\.key))
            }
            for id in remote { result[id] = .some(found[id]) }
        } catch let error as TransportError {
            for id in remote {
                guard let item = cached[id] else {
                    if keepingUnread { continue }
                    throw error
                }
                result[id] = .some(item)
            }
            store.logger.debug("DynamoDB unreachable; rows read from the device", metadata: ["rows": .stringConvertible(remote.count)])
        }
        for (id, changes) in deltas {
            guard case .some(.some(let item)) = result[id], let entity = store.model.entity(named: id.entityName) else { continue }
            result[id] = .some(try applying(changes, to: item, entity: entity))
        }
        return result
    }

    /// Rows read from DynamoDB: `GetItem` for one, `BatchGetItem` for several (consistent).
    private func networkRows(_ ids: [ObjectID]) async throws -> [ObjectID: Item] {
        if ids.count == 1, let id = ids.first, let entity = store.model.entity(named: id.entityName) {
            let output = try await store.client.getItem(GetItemInput(tableName: entity.tableName, key: id.key, consistentRead: true))
            // A tombstone is a row gone (the cache keeps it as one).
            return output.item.flatMap { entity.isTombstone($0) ? nil : [id: $0] } ?? [:]
        }
        var requests: [String: KeysAndAttributes] = [:]
        var entities: [String: EntityDescription] = [:]
        for id in ids {
            guard let entity = store.model.entity(named: id.entityName) else { continue }
            entities[entity.tableName] = entity
            requests[entity.tableName, default: KeysAndAttributes(keys: [], consistentRead: true)].keys.append(id.key)
        }
        var found: [ObjectID: Item] = [:]
        for (table, items) in try await store.client.batchGetAll(requests) {
            guard let entity = entities[table] else { continue }
            for item in items where !entity.isTombstone(item) { found[try identity(of: item, entity: entity)] = item }
        }
        return found
    }

    /// Reloads objects through the device's copy.
    ///
    /// - Parameter keepingUnread: leave the objects whose rows cannot be read (DynamoDB
    ///   unreachable, the row neither cached nor pending) as they are instead of throwing.
    /// - Returns: the objects left unread.
    @discardableResult
    func reloadThroughDevice(_ objects: [ManagedObject], offline: OfflineStore, keepingUnread: Bool = false) async throws -> [ManagedObject] {
        let rows = try await localRows(of: objects.map(\.objectID), offline: offline, keepingUnread: keepingUnread)
        var unread: [ManagedObject] = []
        for object in objects {
            switch rows[object.objectID] {
            case .some(.some(let item)): try fulfill(object, with: item)
            case .some(.none): try markDeletedInStore(object)
            case .none: unread.append(object)
            }
        }
        return unread
    }

    /// A fetch's read through the device's copy: DynamoDB's page (its rows cached), or every
    /// cached row that matches when DynamoDB cannot be reached; then the pending saves' images
    /// laid over it (changed rows tested again, deleted ones left out, new ones added to the
    /// first page), sorted, limited.
    func fetchThroughDevice<Result>(
        _ request: FetchRequest<Result>, executor: FetchExecutor<Result>, offline: OfflineStore, limit: Int?
    ) async throws -> FetchExecutor<Result>.Page {
        let entity = request.entity
        let keyNames = entity.keyAttributes.map(\.storageName)
        let matches = try request.effectivePredicate.matcher()
        var page: FetchExecutor<Result>.Page
        do {
            page = try await executor.items(
                limit: limit, pageSize: request.pageSize, after: request.cursor, attributes: request.neededAttributes)
            if request.neededAttributes == nil { try offline.remember(table: entity.tableName, items: page.items, keyNames: keyNames) }
        } catch is TransportError {
            page = FetchExecutor<Result>.Page(items: request.cursor == nil ? try offline.cachedItems(table: entity.tableName).filter(matches) : [])
        }
        let deltas = try offline.pendingDeltas(table: entity.tableName)
        if !deltas.isEmpty {
            page.items = try page.items.compactMap { item in
                guard let changes = deltas[ItemText.key(item.filter { keyNames.contains($0.key) })] else { return item }
                let changed = try applying(changes, to: item, entity: entity)
                return matches(changed) ? changed : nil
            }
        }
        let images = try offline.pendingImages(table: entity.tableName)
        guard !images.isEmpty else { return page }
        var seen: Set<String> = []
        var items: [Item] = []
        for item in page.items {
            let key = ItemText.key(item.filter { keyNames.contains($0.key) })
            seen.insert(key)
            guard let image = images[key] else {
                items.append(item)
                continue
            }
            if let image, matches(image) { items.append(image) }
        }
        if request.cursor == nil {
            for (key, image) in images.sorted(by: { $0.key < $1.key }) where !seen.contains(key) {
                if let image, matches(image) { items.append(image) }
            }
        }
        StorageSort.sort(&items, by: request.sorts)
        if let limit, items.count > limit { items.removeLast(items.count - limit) }
        page.items = items
        return page
    }
}

// Similarity fetches with the device's copy: DynamoDB's answer with the pending saves ranked in,
// or the cached rows ranked on the device when DynamoDB cannot be reached.
extension ObjectContext {
    /// The nearest rows for a similarity fetch of a store with an offline copy: SearchVectors'
    /// results, except rows the outbox changes or deletes, merged with the outbox's rows scored
    /// here; when DynamoDB cannot be reached, the cached rows with the outbox over them, scored
    /// here. Scores are computed as DynamoDB computes them (at `Float` precision; ties by key).
    /// `whole` marks rows read in full (cached or pending), which register loaded.
    func nearestThroughDevice(
        _ input: SearchVectorsInput, vector query: [Float], entity: EntityDescription, index: EntityVectorIndex,
        offline: OfflineStore, equalities: [(String, AttributeValue)]
    ) async throws -> [(item: Item, score: Double, whole: Bool)] {
        let keyNames = entity.keyAttributes.map(\.storageName)
        let keyText = { (item: Item) in ItemText.key(item.filter { keyNames.contains($0.key) }) }
        let images = try offline.pendingImages(table: entity.tableName)
        var ranked: [(item: Item, score: Double, whole: Bool)] = []
        var rows: [Item]
        do {
            let output = try await store.client.searchVectors(input)
            for result in output.searchResults ?? [] {
                guard let item = result.item, images[keyText(item)] == nil else { continue }
                ranked.append((item, result.score ?? 0, false))
            }
            rows = images.values.compactMap { $0 }
        } catch is TransportError {
            var byKey: [String: Item] = [:]
            for item in try offline.cachedItems(table: entity.tableName) { byKey[keyText(item)] = item }
            for (key, image) in images { byKey[key] = image }
            rows = Array(byKey.values)
        }
        guard let attribute = entity.attribute(named: index.attribute) else { return ranked }
        for row in rows where equalities.allSatisfy({ row[$0.0] == $0.1 }) {
            guard let vector = VectorScore.vector(row[attribute.storageName], dimensions: index.dimensions) else { continue }
            ranked.append((row, VectorScore.score(query, vector, index.distance), true))
        }
        ranked.sort { lhs, rhs in
            if lhs.score != rhs.score { return index.distance == .dotProduct ? lhs.score > rhs.score : lhs.score < rhs.score }
            // Ties by key, in DynamoDB's order.
            for name in keyNames {
                guard let a = lhs.item[name], let b = rhs.item[name], let order = Ordering.compare(a, b), order != 0 else { continue }
                return order < 0
            }
            return false
        }
        return Array(ranked.prefix(input.topK))
    }
}

/// DynamoDB's vector scores, computed on the device for rows it has not stored yet.
enum VectorScore {
    /// A stored vector: a list of `dimensions` numbers, else `nil` (not in the index).
    static func vector(_ value: AttributeValue?, dimensions: Int) -> [Float]? {
        guard case .l(let elements)? = value, elements.count == dimensions else { return nil }
        var vector: [Float] = []
        vector.reserveCapacity(dimensions)
        for element in elements {
            guard case .n(let number) = element, let float = number.floatValue else { return nil }
            vector.append(float)
        }
        return vector
    }

    /// The score of `vector` against `query`, as `Float` arithmetic gives it.
    static func score(_ query: [Float], _ vector: [Float], _ distance: EntityVectorIndex.Distance) -> Double {
        var dot: Float = 0
        var queryNorm: Float = 0
        var vectorNorm: Float = 0
        var squares: Float = 0
        for (a, b) in zip(query, vector) {
            dot += a * b
            queryNorm += a * a
            vectorNorm += b * b
            squares += (a - b) * (a - b)
        }
        let score: Float =
            switch distance {
            case .dotProduct: dot
            case .euclidean: squares.squareRoot()
            case .cosine: queryNorm == 0 || vectorNorm == 0 ? 1 : 1 - dot / (queryNorm.squareRoot() * vectorNorm.squareRoot())
            }
        return Double(score.isFinite ? score : .greatestFiniteMagnitude)
    }
}
