import CSQLite
import Synchronization

extension SQLiteConnection {
    /// Page-cache hits and misses of this connection since it was opened
    /// (`SQLITE_DBSTATUS_CACHE_HIT` / `SQLITE_DBSTATUS_CACHE_MISS`).
    func pageCacheCounts() -> PageCacheCounts {
        func status(_ operation: Int32) -> Int64 {
            var current: Int32 = 0, highWater: Int32 = 0
            return sqlite3_db_status(rawHandle, operation, &current, &highWater, 0) == SQLITE_OK ? Int64(current) : 0
        }
        return PageCacheCounts(hits: status(SQLITE_DBSTATUS_CACHE_HIT), misses: status(SQLITE_DBSTATUS_CACHE_MISS))
    }
}

/// Pages SQLite found in its page cache (hits) and read from the file (misses).
package struct PageCacheCounts: Sendable, Equatable {
    package var hits: Int64 = 0
    package var misses: Int64 = 0

    static func - (lhs: Self, rhs: Self) -> Self { Self(hits: lhs.hits - rhs.hits, misses: lhs.misses - rhs.misses) }
    static func += (lhs: inout Self, rhs: Self) {
        lhs.hits += rhs.hits
        lhs.misses += rhs.misses
    }
}

/// A namespace's page-cache totals for `/metrics`, kept monotonic: each scrape adds what every
/// connection it can see (the writer, the idle readers) counted since the previous scrape, and
/// readers dropped from the pool hand in their last counts first. A reader busy during a scrape
/// is counted at the next one.
final class PageCacheLedger: Sendable {
    private struct State {
        var totals = PageCacheCounts()
        var seen: [ObjectIdentifier: PageCacheCounts] = [:]
    }
    private let state = Mutex<State>(State())

    /// Adds what `connections` counted since they were last seen, and returns the totals.
    func collect(_ connections: [SQLiteConnection]) -> PageCacheCounts {
        let readings = connections.map { (ObjectIdentifier($0), $0.pageCacheCounts()) }
        return state.withLock { state in
            for (id, now) in readings {
                state.totals += now - (state.seen[id] ?? PageCacheCounts())
                state.seen[id] = now
            }
            return state.totals
        }
    }

    /// Counts `connections` one last time and forgets them (they are being closed).
    func retire(_ connections: [SQLiteConnection]) {
        _ = collect(connections)
        state.withLock { state in
            for connection in connections { state.seen[ObjectIdentifier(connection)] = nil }
        }
    }
}

/// SQLite's heap across every connection of the process: page caches, prepared statements,
/// schemas (`sqlite3_memory_used` and its high-water mark).
package struct SQLiteMemory: Sendable, Equatable {
    /// Bytes SQLite holds now.
    package var used: Int64
    /// The most it has held since the process started.
    package var highWater: Int64

    /// Reads the process-wide counters.
    package static func current() -> SQLiteMemory {
        SQLiteMemory(used: sqlite3_memory_used(), highWater: sqlite3_memory_highwater(0))
    }
}
