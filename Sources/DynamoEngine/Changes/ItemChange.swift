/// One item's change, captured inside the write transaction that made it.
///
/// Every write path (PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems, and
/// whatever else writes items: PartiQL, TTL deletions, restores, replication) reports each item
/// it changed through `Database.recordChange`, which appends one of these to the writer's state.
/// Before the transaction commits, ``Database/consumeItemChanges(_:)`` hands the list to every
/// consumer (stream records, point-in-time-recovery change log, replication …), so what a
/// consumer writes commits or rolls back together with the change itself: a crash can never
/// keep a change without its record, or a record without its change.
struct ItemChange: Sendable {
    /// Who made the change.
    enum Origin: Sendable, Equatable {
        /// A client request.
        case request
        /// The TTL sweeper (stream records name the service as the user identity).
        case timeToLive
        /// Replication from another replica of a global table.
        case replication
    }

    /// The table's definition at the time of the write.
    var table: TableDefinition
    /// The item's stored primary key.
    var key: StoredKey
    /// The item's stored wire JSON before the write, `nil` if it did not exist.
    var oldJSON: [UInt8]?
    /// The item's stored wire JSON after the write, `nil` if it was deleted.
    var newJSON: [UInt8]?
    /// The stored size (``ItemSize``) of `oldJSON`'s item, `nil` with it.
    var oldSize: Int?
    /// The stored size of `newJSON`'s item, `nil` with it.
    var newSize: Int?
    var origin: Origin
}
