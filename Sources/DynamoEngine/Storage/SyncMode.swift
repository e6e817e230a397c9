import Synchronization

/// How hard a commit waits for the disk (`serve --sync`), SQLite's `synchronous` setting on the
/// writer connection of every file database (WAL mode).
///
/// Both modes survive a crash of the process (`kill -9`, a trap): a commit is in the WAL file,
/// in the operating system's cache, before the write is acknowledged. They differ on a crash
/// of the machine (power loss, kernel panic): `normal` may lose the last commits acknowledged
/// before it (never corrupting the database), `full` loses none, at the price of an `fsync` per
/// commit (group commit shares it among the writes committed together).
package enum SyncMode: String, Sendable, CaseIterable {
    /// `PRAGMA synchronous=NORMAL`: the WAL is synced at checkpoints only (the default: a test
    /// double's data outlives its process; few need it to outlive the machine).
    case normal
    /// `PRAGMA synchronous=FULL`: the WAL is synced at every commit.
    case full

    var pragma: String {
        switch self {
        case .normal: "PRAGMA synchronous=NORMAL"
        case .full: "PRAGMA synchronous=FULL"
        }
    }
}

extension Database {
    /// Sets the writer connection's `synchronous` mode (file databases; memory has no disk).
    func apply(_ mode: SyncMode) throws {
        guard path != nil else { return }
        try writer.withLock { state in try state.connection.execute(mode.pragma) }
    }

    /// The writer connection's `synchronous` mode as SQLite reports it (0 off, 1 normal, 2 full).
    package var synchronousSetting: Int64 {
        get throws {
            try writer.withLock { state in
                let statement = try state.connection.statement("PRAGMA synchronous")
                _ = try statement.step()
                return statement.int64(0)
            }
        }
    }
}
