import DynamoAPI

extension Database {
    /// Hands the changes of replicated tables to the replication hub (a change consumer: runs
    /// inside the write transaction, see `consumeItemChanges`). Changes that arrived by
    /// replication are not sent on.
    func queueReplication(_ changes: [ItemChange]) {
        // The common case, no replicated table among the changes, costs one look per change.
        guard changes.contains(where: { $0.table.settings?.replication != nil }),
            let (hub, accessKeyID) = replication.connection
        else { return }
        var pending: [PendingReplication] = []
        var now: Double?
        for change in changes where change.origin != .replication {
            guard let group = change.table.settings?.replication, group.regions.count > 1 else { continue }
            let time = now ?? clock.now()
            now = time
            pending.append(
                PendingReplication(
                    accessKeyID: accessKeyID, originRegion: region, table: change.table.name, key: change.key,
                    newJSON: change.newJSON, time: time, targets: group.regions.filter { $0 != region }))
        }
        hub.enqueue(pending)
    }

    /// Writes a change that replication brought from another region, recorded with origin
    /// `.replication` so it is not sent back; nothing when this table's group does not hold the
    /// region the change came from (it left, or this replica was disassociated).
    ///
    /// - Parameter wins: the hub's last-writer-wins decision, asked inside this database's write
    ///   transaction: local writes stamp their items under the same writer lock, so none can
    ///   commit between the decision and this write (asked before the transaction, a local write
    ///   landing in between was overwritten by the older replicated one and the regions diverged).
    func applyReplicated(table name: String, from origin: String, key: StoredKey, json: [UInt8]?, wins: () -> Bool) throws {
        func replicates(_ table: TableDefinition?) -> Bool { table?.settings?.replication?.regions.contains(origin) == true }
        guard replicates(cachedDefinition(name)) else { return }
        let size = try json.map { try ItemSize.of(AttributeValue.decodeItem(bytes: $0)) }
        try write { state in
            guard let table = cachedDefinition(name), replicates(table), wins() else { return }
            let store = try itemStore(table, in: state)
            let old = try store.get(key)
            var new: (json: [UInt8], size: Int)?
            if let json, let size {
                try store.put(key, json: json, size: size, replacing: old?.json)
                new = (json, size)
            } else {
                guard let old else { return }
                try store.delete(key, removing: old.json)
            }
            try recordChange(&state, table: table, store: store, key: key, old: old, new: new, origin: .replication)
        }
    }

    /// Copies every item of `source` into this namespace's table of the same name (a new
    /// replica's initial fill), as replication changes.
    func copyItems(from source: Database, table name: String) throws {
        let definition = try source.table(named: name)
        let rows: [(StoredKey, [UInt8], Int)] = try source.read { connection in
            let statement = try connection.statement("SELECT hash, pk, sk, item, size FROM items_\(definition.storageID)")
            var rows: [(StoredKey, [UInt8], Int)] = []
            while try statement.step() {
                rows.append(
                    (
                        StoredKey(hash: statement.int64(0), partition: statement.blob(1), sort: statement.blob(2)),
                        statement.blob(3), Int(statement.int64(4))
                    ))
            }
            return rows
        }
        try write { state in
            guard let table = cachedDefinition(name) else { throw DynamoError.tableNotFound() }
            let store = try itemStore(table, in: state)
            for (key, json, size) in rows {
                let old = try store.get(key)
                try store.put(key, json: json, size: size, replacing: old?.json)
                try recordChange(&state, table: table, store: store, key: key, old: old, new: (json, size), origin: .replication)
            }
        }
    }
}
