import DynamoAPI
import Dispatch
import Logging
import Synchronization

/// One item change of a global table on its way to the other replicas.
struct PendingReplication: Sendable {
    /// The access key id of the namespace that made the change (`nil` in per-region mode).
    var accessKeyID: String?
    var originRegion: String
    var table: String
    var key: StoredKey
    /// The item's stored JSON after the change, `nil` for a deletion.
    var newJSON: [UInt8]?
    /// Server-clock seconds of the change: the later write of an item wins on every replica.
    var time: Double
    /// The regions to deliver to.
    var targets: [String]
}

/// Delivers the changes of global tables between the namespaces of one engine.
///
/// A write to a replicated table hands its changes to the hub inside its transaction
/// (`Database.queueReplication`); a serial queue, off the event loops and the cooperative pool,
/// writes them into the replica tables of the other regions' namespaces right after, as
/// `.replication` changes that are not sent on again. Conflicts resolve last writer wins per
/// item: a change older than the last one the target region saw for that item (by server-clock
/// time, then the order the hub received them in) is dropped, so all replicas converge on the
/// same item.
package final class ReplicationHub: Sendable {
    /// Opens the database of a namespace: access key id (per-access-key mode) and region.
    package typealias Resolver = @Sendable (_ accessKeyID: String?, _ region: String) throws -> Database

    package let namespaceMode: NamespaceMode
    /// Where a delivery that failed (not a replica that is gone: a storage error) is reported.
    private let logger: Logger
    private let resolver = Mutex<Resolver?>(nil)
    /// The stamp of the last change applied to each item of each region, and the last sequence number.
    private let lastWrites = Mutex<(stamps: [WriteKey: WriteStamp], sequence: UInt64)>(([:], 0))
    private let queue = DispatchQueue(label: "localdynamo.replication")

    private struct WriteKey: Hashable {
        var accessKeyID: String?
        var region: String
        var table: String
        var key: StoredKey
    }

    /// When a change was made: server-clock time, then the hub's own order of changes, which
    /// breaks ties between writes in the same instant as they really happened (every namespace
    /// of the engine hands its changes to this one hub).
    private struct WriteStamp: Comparable {
        var time: Double
        var sequence: UInt64

        static func < (left: WriteStamp, right: WriteStamp) -> Bool {
            (left.time, left.sequence) < (right.time, right.sequence)
        }
    }

    package init(namespaceMode: NamespaceMode, logger: Logger) {
        self.namespaceMode = namespaceMode
        self.logger = logger
    }

    /// Sets how the hub opens other namespaces' databases (the engine, once it exists).
    package func resolve(with resolver: @escaping Resolver) {
        self.resolver.withLock { $0 = resolver }
    }

    /// The database of the namespace `accessKeyID` sees in `region`; a ValidationException in
    /// `--shared-db` mode, where every region is the same namespace.
    package func database(accessKeyID: String?, region: String) throws -> Database {
        guard namespaceMode != .shared else {
            throw EngineMessages.globalTablesNeedUnsharedDB
        }
        guard let resolver = resolver.withLock({ $0 }) else {
            throw EngineMessages.replicationNotConnectedEngine
        }
        return try resolver(accessKeyID, region)
    }

    /// Takes changes made in the origin's namespace (called inside its write transaction) and
    /// schedules their delivery.
    func enqueue(_ changes: [PendingReplication]) {
        guard !changes.isEmpty else { return }
        let stamped = lastWrites.withLock { state in
            changes.map { change in
                state.sequence += 1
                let stamp = WriteStamp(time: change.time, sequence: state.sequence)
                let key = WriteKey(accessKeyID: change.accessKeyID, region: change.originRegion, table: change.table, key: change.key)
                state.stamps[key] = max(stamp, state.stamps[key] ?? stamp)
                return (change, stamp)
            }
        }
        queue.async { [self] in
            for (change, stamp) in stamped { deliver(change, stamp: stamp) }
        }
    }

    /// Runs `body` on the delivery queue, after every change queued so far was delivered (a new
    /// replica's first copy runs here so no delivery interleaves with it; tests wait with it).
    package func serialized<T: Sendable>(_ body: () throws -> T) rethrows -> T {
        try queue.sync { try body() }
    }

    private func deliver(_ change: PendingReplication, stamp: WriteStamp) {
        for region in change.targets {
            let key = WriteKey(accessKeyID: change.accessKeyID, region: region, table: change.table, key: change.key)
            // A replica that disappeared meanwhile (deleted, its region removed) just misses it:
            // `applyReplicated` returns without writing. Anything thrown is a failed write.
            do {
                try database(accessKeyID: change.accessKeyID, region: region)
                    .applyReplicated(table: change.table, from: change.originRegion, key: change.key, json: change.newJSON) {
                        lastWrites.withLock { state in
                            if let last = state.stamps[key], last > stamp { return false }
                            state.stamps[key] = stamp
                            return true
                        }
                    }
            } catch {
                logger.error(
                    "replication to a replica failed; the replica misses this change",
                    metadata: ["table": "\(change.table)", "region": "\(region)", "error": "\(error)"])
            }
        }
    }
}

/// A database's connection to its engine's replication hub.
package final class ReplicationLink: Sendable {
    private let state = Mutex<(hub: ReplicationHub, accessKeyID: String?)?>(nil)

    package init() {}

    /// Connects the database, opened for `accessKeyID`, to `hub`.
    package func attach(to hub: ReplicationHub, accessKeyID: String?) {
        state.withLock { $0 = (hub, accessKeyID) }
    }

    /// The hub and the namespace's access key id, or `nil` for a database outside an engine.
    var connection: (hub: ReplicationHub, accessKeyID: String?)? { state.withLock { $0 } }
}
