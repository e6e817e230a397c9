import DynamoAPI

extension Database {
    /// What an eventually consistent point read (GetItem, BatchGetItem, a PartiQL SELECT by
    /// key) of the item at `key` answers, given what the database holds (`found`): the model's
    /// visible version while the item's last write is not visible yet.
    func eventuallyConsistent(
        _ found: (json: [UInt8], size: Int)?, table: TableDefinition, key: StoredKey
    ) -> (json: [UInt8], size: Int)? {
        switch consistency.visibility(storageID: table.storageID, key: key, now: clock.now(), reader: .table) {
        case .current: found
        case .version(let json, let size): (json, size)
        case .absent: nil
        }
    }

    /// Makes `pager` read as an eventually consistent read sees (``EventualOverlay``,
    /// ``GhostMerge``), unless it sees the database itself: strongly consistent, `exact` mode,
    /// or nothing of the table pending.
    ///
    /// - Parameters:
    ///   - start: the read's `ExclusiveStartKey` as a row position.
    ///   - within: whether a position lies in the read's range (a segment, a partition's sort range).
    ///   - order: the read's order.
    func readEventually(
        _ pager: inout ReadPager, table: TableDefinition, index: IndexDefinition?, start: ItemStore.Row?,
        within: (ItemStore.Row) -> Bool, order: @escaping (ItemStore.Row, ItemStore.Row) -> Bool
    ) {
        guard !pager.options.consistentRead, consistency.isActive, consistency.hasHistory(storageID: table.storageID) else { return }
        let overlay = EventualOverlay(model: consistency, table: table, index: index, now: clock.now())
        pager.overlay = overlay
        pager.ghosts = GhostMerge(overlay.ghostRows(where: within), start: start, precedes: order)
    }
}

/// Replaces each row a range read finds by what an eventually consistent read sees of it
/// (``ConsistencyModel/visibility(storageID:key:now:reader:)``): the table's rows by the item's
/// visible version, an index's entries by the visible version's entry when it is still at
/// the same place in the index (a local index reads like its table, a global one after its
/// propagation delay). A row whose visible version is absent, or sits elsewhere in the index,
/// is left out.
struct EventualOverlay {
    let model: ConsistencyModel
    let table: TableDefinition
    let index: IndexDefinition?
    let now: Double

    var reader: ConsistencyModel.Reader { index?.isGlobal == true ? .globalIndex : .table }

    /// The row as the read sees it, with the whole item when it was replaced (a local index's
    /// fetch of unprojected attributes then takes that instead of the table's row), or `nil` to
    /// leave it out.
    func visible(_ row: ItemStore.Row) throws -> (row: ItemStore.Row, item: [UInt8]?)? {
        let tableKey = row.tableKey ?? row.key
        switch model.visibility(storageID: table.storageID, key: tableKey, now: now, reader: reader) {
        case .current:
            return (row, nil)
        case .absent:
            return nil
        case .version(let json, let size):
            guard let index else { return (ItemStore.Row(key: row.key, json: json, size: size, tableKey: nil), json) }
            let item = try AttributeValue.decodeItem(bytes: json)
            guard let indexKey = try? index.storedKey(of: item), indexKey == row.key else { return nil }
            let entry = index.projectionType == .all ? json : ItemJSON.encode(IndexStore.project(item, index: index, table: table))
            return (ItemStore.Row(key: row.key, json: entry, size: row.size, tableKey: tableKey), json)
        }
    }
}

extension EventualOverlay {
    /// The rows a reader sees that the database no longer holds where it sees them: an item
    /// deleted after the version the read sees, or for an index, the entry of a version whose
    /// index key differs from the current one's. Each carries the table key and the seen
    /// version's whole item; ``visible(_:)`` makes its entry as for any row. Only those whose
    /// position passes `include`.
    func ghostRows(where include: (ItemStore.Row) -> Bool) -> [ItemStore.Row] {
        var rows: [ItemStore.Row] = []
        for unsettled in model.unsettled(storageID: table.storageID, now: now, reader: reader) {
            guard let seen = unsettled.seen else { continue }
            let row: ItemStore.Row
            if let index {
                guard let item = try? AttributeValue.decodeItem(bytes: seen.json),
                    let seenKey = try? index.storedKey(of: item)
                else { continue }
                let currentKey = unsettled.current.flatMap { json in
                    (try? AttributeValue.decodeItem(bytes: json)).flatMap { try? index.storedKey(of: $0) }
                }
                guard currentKey != seenKey else { continue }
                row = ItemStore.Row(key: seenKey, json: seen.json, size: seen.size, tableKey: unsettled.key)
            } else {
                guard unsettled.current == nil else { continue }
                row = ItemStore.Row(key: unsettled.key, json: seen.json, size: seen.size, tableKey: nil)
            }
            if include(row) { rows.append(row) }
        }
        return rows
    }
}

/// Adds a range read's ghost rows (``EventualOverlay/ghostRows(where:)``) to the batches it
/// reads from the database, each where the read's order puts it.
struct GhostMerge {
    /// The ghosts, in the read's order.
    let rows: [ItemStore.Row]
    /// Where the read starts (its `ExclusiveStartKey`), exclusive.
    let start: ItemStore.Row?
    /// The read's order.
    let precedes: (ItemStore.Row, ItemStore.Row) -> Bool

    init(
        _ rows: [ItemStore.Row], start: ItemStore.Row?,
        precedes: @escaping (ItemStore.Row, ItemStore.Row) -> Bool
    ) {
        self.rows = rows.sorted(by: precedes)
        self.start = start
        self.precedes = precedes
    }

    /// `batch` (read after `last`, or after the start) with the ghosts that fall after `last`
    /// and up to the batch's last row (or beyond, when the database had no more rows).
    func merge(after last: ItemStore.Row?, _ batch: [ItemStore.Row], exhausted: Bool) -> [ItemStore.Row] {
        let after = last ?? start
        let bound = exhausted ? nil : batch.last
        let taken = rows.filter { ghost in
            (after.map { precedes($0, ghost) } ?? true) && (bound.map { !precedes($0, ghost) } ?? true)
                && !batch.contains { !precedes($0, ghost) && !precedes(ghost, $0) }
        }
        guard !taken.isEmpty else { return batch }
        return (batch + taken).sorted(by: precedes)
    }

    /// A table row's position, for a read's start.
    static func position(_ key: StoredKey) -> ItemStore.Row { ItemStore.Row(key: key, json: [], size: 0) }

    /// Whether a row lies in a Query's partition and sort-key range.
    static func within(_ partition: StoredKey, _ range: SortKeyRange) -> (ItemStore.Row) -> Bool {
        { $0.key.hash == partition.hash && $0.key.partition == partition.partition && range.contains($0.key.sort) }
    }

    /// A Scan's order of rows: (hash, partition, sort), then for an index the table key.
    static func scanOrder(_ a: ItemStore.Row, _ b: ItemStore.Row) -> Bool {
        Self.precedes(a.key, b.key) ?? Self.tableKeyPrecedes(a.tableKey, b.tableKey)
    }

    /// A Query's order: the sort key, then (for an index) the table key, in the direction of travel.
    static func queryOrder(forward: Bool) -> (ItemStore.Row, ItemStore.Row) -> Bool {
        { a, b in
            let (first, second) = forward ? (a, b) : (b, a)
            if first.key.sort != second.key.sort { return first.key.sort.lexicographicallyPrecedes(second.key.sort) }
            return Self.tableKeyPrecedes(first.tableKey, second.tableKey)
        }
    }

    /// An index's tie-break between entries of one index key: (tpk, tsk), as SQLite orders them.
    private static func tableKeyPrecedes(_ a: StoredKey?, _ b: StoredKey?) -> Bool {
        guard let a, let b else { return false }
        if a.partition != b.partition { return a.partition.lexicographicallyPrecedes(b.partition) }
        return a.sort.lexicographicallyPrecedes(b.sort)
    }

    /// Whether `a` sorts before `b` as SQLite orders (hash, pk, sk); `nil` when equal.
    private static func precedes(_ a: StoredKey?, _ b: StoredKey?) -> Bool? {
        guard let a, let b else { return nil }
        if a.hash != b.hash { return a.hash < b.hash }
        if a.partition != b.partition { return a.partition.lexicographicallyPrecedes(b.partition) }
        if a.sort != b.sort { return a.sort.lexicographicallyPrecedes(b.sort) }
        return nil
    }
}
