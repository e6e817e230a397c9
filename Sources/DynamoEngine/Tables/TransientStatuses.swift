import DynamoAPI
import Synchronization

/// Keeps the transitional statuses DynamoDB shows for a while visible for `delay` seconds of
/// the server clock (DynamoDB Local's `-delayTransientStatuses`), where LocalDynamo finishes the
/// work at once: a new table stays CREATING, an updated one UPDATING, a deleted one DELETING
/// (still described, then gone), a new global index CREATING (backfilling) and a deleted one
/// DELETING (its table UPDATING).
///
/// Only what DescribeTable reports is held: reads and writes work as soon as the engine has
/// done the work, so an application that waits for ACTIVE (the SDK waiters) sees DynamoDB's
/// sequence of statuses, and one that does not wait still works. With `delay == 0` (the
/// default) nothing is held.
final class TransientStatuses: Sendable {
    private struct Hold<Status: Sendable> {
        var status: Status
        var until: Double
    }

    private struct State {
        var delay: Double = 0
        var tables: [String: Hold<TableStatus>] = [:]
        /// Per table, per index: the held status, and the index itself for a deleted one.
        var indexes: [String: [String: (hold: Hold<IndexStatus>, deleted: IndexDefinition?)]] = [:]
        var deletedTables: [String: (snapshot: TableSnapshot, until: Double)] = [:]
        /// Per table, per vector index: the held status, and the index itself for a deleted one.
        var vectorIndexes: [String: [String: (hold: Hold<IndexStatus>, deleted: VectorIndexDefinition?)]] = [:]
    }

    private let state = Mutex(State())

    /// Seconds a transitional status stays visible; `0` holds nothing.
    var delay: Double {
        get { state.withLock { $0.delay } }
        set { state.withLock { $0.delay = max(0, newValue) } }
    }

    /// Holds `status` (`CREATING`, `UPDATING`) on a table from `now`.
    func hold(table: String, status: TableStatus, now: Double) {
        state.withLock { state in
            guard state.delay > 0 else { return }
            state.tables[table] = Hold(status: status, until: now + state.delay)
            state.deletedTables[table] = nil
        }
    }

    /// Holds `status` on a global index from `now`; `deleted` is the index a deletion removes.
    func hold(index: String, of table: String, status: IndexStatus, deleted: IndexDefinition? = nil, now: Double) {
        state.withLock { state in
            guard state.delay > 0 else { return }
            state.indexes[table, default: [:]][index] = (Hold(status: status, until: now + state.delay), deleted)
        }
    }

    /// Holds `status` on a vector index from `now`; `deleted` is the index a deletion removed
    /// (still described DELETING).
    func hold(vectorIndex index: String, of table: String, status: IndexStatus, deleted: VectorIndexDefinition? = nil, now: Double) {
        state.withLock { state in
            guard state.delay > 0 else { return }
            state.vectorIndexes[table, default: [:]][index] = (Hold(status: status, until: now + state.delay), deleted)
        }
    }

    /// Keeps describing a deleted table as DELETING from `now`.
    func holdDeleted(_ snapshot: TableSnapshot, now: Double) {
        state.withLock { state in
            guard state.delay > 0 else { return }
            let name = snapshot.definition.name
            state.deletedTables[name] = (snapshot, now + state.delay)
            state.tables[name] = nil
            state.indexes[name] = nil
            state.vectorIndexes[name] = nil
        }
    }

    /// The DELETING description of a table deleted less than `delay` ago.
    func deletedTable(named name: String, now: Double) -> TableSnapshot? {
        state.withLock { state in
            guard let held = state.deletedTables[name] else { return nil }
            guard held.until > now else {
                state.deletedTables[name] = nil
                return nil
            }
            return held.snapshot
        }
    }

    /// Ends every status held (`POST /_localdynamo/consistency/settle`): descriptions show the
    /// state the work already reached.
    func releaseAll() {
        state.withLock { state in
            state.tables = [:]
            state.indexes = [:]
            state.deletedTables = [:]
            state.vectorIndexes = [:]
        }
    }

    /// Applies the statuses still held at `now` to a description.
    func apply(to snapshot: inout TableSnapshot, now: Double) {
        let name = snapshot.definition.name
        let (table, indexes, vectorIndexes) = state.withLock { state in
            if let hold = state.tables[name], hold.until <= now { state.tables[name] = nil }
            state.indexes[name] = state.indexes[name]?.filter { $0.value.hold.until > now }
            state.vectorIndexes[name] = state.vectorIndexes[name]?.filter { $0.value.hold.until > now }
            return (state.tables[name], state.indexes[name] ?? [:], state.vectorIndexes[name] ?? [:])
        }
        for (index, held) in vectorIndexes.sorted(by: { $0.key < $1.key }) {
            if let deleted = held.deleted {
                if snapshot.definition.vectorIndex(named: index) == nil { snapshot.deletedVectorIndexes.append(deleted) }
                snapshot.status = .updating
            } else if snapshot.definition.vectorIndex(named: index) != nil {
                snapshot.vectorIndexStatus[index] = held.hold.status
            }
        }
        for (index, held) in indexes.sorted(by: { $0.key < $1.key }) {
            if let deleted = held.deleted {
                if !snapshot.definition.globalIndexes.contains(where: { $0.name == index }) {
                    var shown = deleted
                    shown.status = .deleting
                    snapshot.definition.globalIndexes.append(shown)
                }
                snapshot.status = .updating
            } else if snapshot.definition.globalIndexes.contains(where: { $0.name == index }) {
                snapshot.indexStatus[index] = held.hold.status
            }
        }
        if let table { snapshot.status = table.status }
    }
}
