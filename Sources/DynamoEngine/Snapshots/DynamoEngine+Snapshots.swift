import Synchronization

/// Named snapshots of the engine's namespaces (`POST /_localdynamo/snapshots`).
package final class SnapshotRegistry: Sendable {
    /// One named snapshot.
    package struct Entry: Sendable {
        package var name: String
        /// When it was taken, on the server clock.
        package var takenAt: Double
        /// Whether it covers every namespace (restoring it empties namespaces opened since).
        package var everyNamespace: Bool
        /// The copies, by namespace name.
        package var databases: [String: DatabaseSnapshot]
    }

    private let entries = Mutex<[String: Entry]>([:])

    package init() {}

    /// Every snapshot, by name.
    package var all: [Entry] { entries.withLock { $0.values.sorted { $0.name < $1.name } } }

    func store(_ entry: Entry) { entries.withLock { $0[entry.name] = entry } }
    func entry(named name: String) -> Entry? { entries.withLock { $0[name] } }
    func remove(named name: String) -> Bool { entries.withLock { $0.removeValue(forKey: name) != nil } }
}

/// Why a snapshot request was refused.
package enum SnapshotError: Error, Equatable, CustomStringConvertible {
    case unknownSnapshot(String)
    case unknownNamespace(String)

    package var description: String {
        switch self {
        case .unknownSnapshot(let name): "No snapshot named \(name)"
        case .unknownNamespace(let name): "No namespace named \(name) has been opened (namespaces open on their first request)"
        }
    }
}

extension DynamoEngine {
    /// Takes a snapshot named `name` (replacing one of the same name) of one namespace, or of
    /// every namespace opened so far when `namespace` is `nil`.
    @discardableResult
    package func takeSnapshot(named name: String, namespace: String?) throws -> SnapshotRegistry.Entry {
        let open = openDatabases
        let chosen: [String: Database]
        if let namespace {
            guard let database = open[namespace] else { throw SnapshotError.unknownNamespace(namespace) }
            chosen = [namespace: database]
        } else {
            chosen = open
        }
        var copies: [String: DatabaseSnapshot] = [:]
        for (namespace, database) in chosen { copies[namespace] = try database.takeSnapshot() }
        let entry = SnapshotRegistry.Entry(
            name: name, takenAt: clock.now(), everyNamespace: namespace == nil,
            databases: copies)
        snapshots.store(entry)
        return entry
    }

    /// Restores the snapshot named `name`; a snapshot of every namespace also empties the
    /// namespaces opened after it was taken.
    ///
    /// - Returns: the namespaces restored, with the tables each now holds.
    package func restoreSnapshot(named name: String) throws -> [String: [String]] {
        guard let entry = snapshots.entry(named: name) else { throw SnapshotError.unknownSnapshot(name) }
        var restored: [String: [String]] = [:]
        let open = openDatabases
        for (namespace, copy) in entry.databases {
            guard let database = open[namespace] else { throw SnapshotError.unknownNamespace(namespace) }
            try database.restore(copy)
            restored[namespace] = copy.tables
        }
        if entry.everyNamespace {
            for (namespace, database) in open where entry.databases[namespace] == nil {
                try database.restore(DatabaseSnapshot.empty())
                restored[namespace] = []
            }
        }
        return restored
    }

    /// Forgets the snapshot named `name`; `false` when there was none.
    package func deleteSnapshot(named name: String) -> Bool {
        snapshots.remove(named: name)
    }
}
