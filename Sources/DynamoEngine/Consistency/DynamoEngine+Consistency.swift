import Synchronization

/// The engine's consistency settings: the server's, and the overrides set through the admin
/// API for a namespace or for a table of one.
struct ConsistencyDefaults: Sendable {
    var server: ConsistencySettings
    /// Namespace name → mode.
    var namespaces: [String: ConsistencyMode] = [:]
    /// When everything was last settled: a namespace opened since (after a restart, say) holds
    /// nothing back from before then either.
    var settledAt: Double = 0

    func settings(of namespace: String) -> ConsistencySettings {
        var settings = server
        if let mode = namespaces[namespace] { settings.mode = mode }
        return settings
    }
}

/// What `GET /_localdynamo/consistency` reports of one namespace.
package struct NamespaceConsistency: Sendable {
    package var namespace: String
    package var settings: ConsistencySettings
    package var tableModes: [String: ConsistencyMode]
    package var pending: [ConsistencyPending]
    package var staleAnswers: Int
    /// Kinesis destination records waiting out their delay.
    package var heldKinesisRecords: Int
}

extension DynamoEngine {
    /// The server's settings (`serve --consistency` and its parameters).
    package var consistencySettings: ConsistencySettings { consistencyDefaults.withLock { $0.server } }

    /// Applies the namespace's settings to a database being opened.
    func configureConsistency(of database: Database, namespace: String) {
        let settings = consistencyDefaults.withLock { $0.settings(of: namespace) }
        database.consistency.configure(settings)
        // Statuses take time in `service` mode, unless the server holds them for its own delay.
        let serviceDelay = settings.mode == .service && transientStatusDelay == 0
        database.transientStatuses.delay = serviceDelay ? settings.statusDelay : transientStatusDelay
    }

    /// Sets the mode of a namespace (every open one and those opened later when `namespace` is
    /// `nil`), or of one table in it; `mode == nil` goes back to the server's.
    package func setConsistency(_ mode: ConsistencyMode?, namespace: String?, table: String?) {
        let databases = openDatabases
        if let table {
            for (name, database) in databases where namespace == nil || namespace == name {
                database.consistency.setMode(mode, table: table)
            }
            return
        }
        consistencyDefaults.withLock { defaults in
            if let namespace {
                defaults.namespaces[namespace] = mode
            } else {
                defaults.namespaces = [:]
                if let mode { defaults.server.mode = mode }
            }
        }
        for (name, database) in databases where namespace == nil || namespace == name {
            configureConsistency(of: database, namespace: name)
        }
    }

    /// Makes everything pending in every namespace visible at once (one opened later holds back
    /// nothing from before the settle): item versions, index
    /// entries, stream records, statuses in transition, and TTL deletions of items expired by
    /// now (the sweeper runs). Returns the item versions that were pending and the items TTL
    /// deleted. Blocking: call it off the event loops.
    package func settleConsistency() throws -> (versions: Int, deleted: Int) {
        var versions = 0
        let now = clock.now()
        consistencyDefaults.withLock { $0.settledAt = max($0.settledAt, now) }
        for database in openDatabases.values {
            versions += database.consistency.settle(now: now)
            database.transientStatuses.releaseAll()
        }
        let deleted = try sweepExpiredItems()
        return (versions, deleted)
    }

    /// Each open namespace's settings, overrides and pending changes, by namespace name.
    package func consistencyReport() throws -> [NamespaceConsistency] {
        let now = clock.now()
        return try openDatabases.sorted { $0.key < $1.key }.map { name, database in
            NamespaceConsistency(
                namespace: name, settings: database.consistency.settings,
                tableModes: database.consistency.tableModes, pending: try database.consistencyPending(now: now),
                staleAnswers: database.consistency.staleAnswerCount,
                heldKinesisRecords: database.consistency.kinesis.heldCount)
        }
    }

    /// Items answered stale (an earlier version, or left out) in every open namespace.
    package var staleAnswerCount: Int { openDatabases.values.reduce(0) { $0 + $1.consistency.staleAnswerCount } }
}
