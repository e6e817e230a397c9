import Synchronization

/// One namespace's consistency model (``ConsistencyMode``): in `service` mode, the recent
/// versions of every item written, each with the moments an eventually consistent read of the
/// table and of a global secondary index start to see it; in `exact` mode nothing at all.
///
/// Writes never consult it: the writer hands it each committed transaction's changes
/// (``record(_:now:)``), and the read paths that may be eventually consistent (GetItem,
/// BatchGetItem, Query, Scan and the PartiQL reads built on them, stream records, the TTL
/// sweeper) ask it what they may answer. `ConsistentRead`, transactions and conditions read
/// the database itself. Every read path first checks ``isActive`` (one relaxed atomic load):
/// in `exact` mode that is all it costs.
///
/// A read at time `t` answers, for each item, the newest version whose visibility time is at
/// or before `t` (the version before the first one kept, when none is). A version becomes
/// visible at most ``ConsistencySettings/window`` seconds after its write, so an answer is
/// always a version that was current at some moment within the window before the read, and
/// always one of the item's own versions. History is kept until every version of an item is
/// visible, bounded by ``maximumVersions`` (past it, the settled items are forgotten first, then
/// everything: forgetting only makes reads exact).
package final class ConsistencyModel: Sendable {
    /// Versions kept at most across the namespace.
    static let maximumVersions = 100_000

    /// What an eventually consistent read may answer for one item.
    enum Visibility: Equatable {
        /// What the database holds now.
        case current
        /// An earlier version of the item, stored wire JSON and size.
        case version(json: [UInt8], size: Int)
        /// The item as absent (created, or its index entry made, after what the read sees).
        case absent
    }

    /// Which readers see a version when.
    enum Reader {
        /// The table and its local secondary indexes.
        case table
        /// A global secondary index.
        case globalIndex
    }

    private struct Version {
        var json: [UInt8]?
        var size: Int
        var writtenAt: Double
        var tableVisibleAt: Double
        var indexVisibleAt: Double

        func visibleAt(_ reader: Reader) -> Double { reader == .table ? tableVisibleAt : indexVisibleAt }
    }

    private struct KeyHistory {
        /// The item before the first version kept (`nil`: absent).
        var base: [UInt8]?
        var baseSize: Int
        var versions: [Version]

        var settlesAt: Double { versions.map { max($0.tableVisibleAt, $0.indexVisibleAt) }.max() ?? 0 }
    }

    private struct TableHistory {
        var name: String
        var keys: [StoredKey: KeyHistory] = [:]
    }

    private struct State {
        var settings = ConsistencySettings.exact
        /// Per-table modes set through the admin API (`nil` members are not stored).
        var tableModes: [String: ConsistencyMode] = [:]
        /// By storage id: a table deleted and created again under its name starts afresh.
        var histories: [Int64: TableHistory] = [:]
        var versionCount = 0
        /// Changes recorded since the namespace opened: each change's draws come from the seed
        /// and its number, so the same seed and the same writes in the same order lag alike.
        var changesRecorded: UInt64 = 0
        /// Everything written, every stream record created and every TTL expiry at or before
        /// this moment is visible or due (``settle(now:)``).
        var settledAt = -Double.infinity

        func mode(of table: String) -> ConsistencyMode { tableModes[table] ?? settings.mode }
        var anyService: Bool { settings.mode == .service || tableModes.values.contains(.service) }
    }

    private let active = Atomic<Bool>(false)
    private let state = Mutex(State())
    private let staleAnswers = Atomic<Int>(0)
    /// Kinesis destinations' records waiting out their delay.
    let kinesis = DelayedKinesisRecords()

    init() {}

    /// Whether any table of the namespace is in `service` mode: when not, no read consults the
    /// model and no write is recorded.
    var isActive: Bool { active.load(ordering: .relaxed) }

    /// The namespace's settings (the server's, or an override's).
    package var settings: ConsistencySettings { state.withLock { $0.settings } }

    /// Items answered in an earlier version, or left out, since the namespace was opened.
    package var staleAnswerCount: Int { staleAnswers.load(ordering: .relaxed) }

    /// Sets the namespace's settings; history of tables that turn exact is dropped.
    package func configure(_ settings: ConsistencySettings) {
        state.withLock { state in
            state.settings = settings
            dropExactHistories(&state)
            active.store(state.anyService, ordering: .relaxed)
        }
    }

    /// Sets one table's mode (`nil`: back to the namespace's).
    package func setMode(_ mode: ConsistencyMode?, table: String) {
        state.withLock { state in
            state.tableModes[table] = mode
            dropExactHistories(&state)
            active.store(state.anyService, ordering: .relaxed)
        }
    }

    /// The mode reads of `table` follow.
    package func mode(of table: String) -> ConsistencyMode { state.withLock { $0.mode(of: table) } }

    private func dropExactHistories(_ state: inout State) {
        let exact = state.histories.filter { state.mode(of: $0.value.name) == .exact }.keys
        for id in exact {
            state.versionCount -= state.histories[id]?.keys.values.reduce(0) { $0 + $1.versions.count } ?? 0
            state.histories[id] = nil
        }
    }

    // MARK: Writes

    /// Keeps the versions a committed transaction wrote (called by the writer after the
    /// commit, before the write is acknowledged), each with its visibility times drawn.
    func record(_ changes: [ItemChange], now: Double) {
        state.withLock { state in
            let draws = ConsistencyDraws(seed: state.settings.seed)
            let settings = state.settings
            for change in changes where state.mode(of: change.table.name) == .service {
                let id = change.table.storageID
                state.changesRecorded &+= 1
                let sequence = state.changesRecorded
                var tableLag = 0.0
                if draws.unit(.staleChance, sequence) < settings.staleProbability {
                    tableLag = draws.unit(.staleLag, sequence) * settings.window
                }
                let indexLag = draws.unit(.indexLag, sequence) * settings.window
                let version = Version(
                    json: change.newJSON, size: change.newSize ?? 0, writtenAt: now,
                    tableVisibleAt: now + tableLag, indexVisibleAt: now + indexLag)
                var table = state.histories[id] ?? TableHistory(name: change.table.name)
                var history = table.keys[change.key] ?? KeyHistory(base: change.oldJSON, baseSize: change.oldSize ?? 0, versions: [])
                if !history.versions.isEmpty, history.settlesAt <= now {
                    state.versionCount -= history.versions.count
                    history = KeyHistory(base: change.oldJSON, baseSize: change.oldSize ?? 0, versions: [])
                }
                history.versions.append(version)
                state.versionCount += 1
                table.keys[change.key] = history
                state.histories[id] = table
            }
            if state.versionCount > Self.maximumVersions { forgetSettled(&state, now: now) }
            if state.versionCount > Self.maximumVersions {
                state.histories = [:]
                state.versionCount = 0
            }
        }
    }

    private func forgetSettled(_ state: inout State, now: Double) {
        for (id, table) in state.histories {
            var kept = table
            for (key, history) in table.keys where history.settlesAt <= now {
                kept.keys[key] = nil
                state.versionCount -= history.versions.count
            }
            state.histories[id] = kept.keys.isEmpty ? nil : kept
        }
    }

    // MARK: Reads

    /// What an eventually consistent read by `reader` at `now` may answer for the item at
    /// `key` of the table with storage id `storageID`; counted in ``staleAnswerCount`` when it
    /// is not the current version.
    func visibility(storageID: Int64, key: StoredKey, now: Double, reader: Reader) -> Visibility {
        let answer = state.withLock { state -> Visibility in
            guard let history = state.histories[storageID]?.keys[key] else { return .current }
            guard let newest = history.versions.lastIndex(where: { $0.visibleAt(reader) <= now }) else {
                return history.base.map { .version(json: $0, size: history.baseSize) } ?? .absent
            }
            if newest == history.versions.count - 1 { return .current }
            let version = history.versions[newest]
            return version.json.map { .version(json: $0, size: version.size) } ?? .absent
        }
        if answer != .current { staleAnswers.wrappingAdd(1, ordering: .relaxed) }
        return answer
    }

    /// Whether the table with storage id `storageID` has versions not yet visible to every
    /// reader (a range read then asks ``visibility(storageID:key:now:reader:)`` row by row).
    func hasHistory(storageID: Int64) -> Bool {
        state.withLock { $0.histories[storageID] != nil }
    }

    /// The items of table `storageID` whose last write a reader at `now` does not see yet:
    /// each item's key, the version it sees (`nil`: absent) and the current one (`nil`: deleted).
    /// A range read adds those the database no longer holds where the reader sees them.
    func unsettled(storageID: Int64, now: Double, reader: Reader) -> [(key: StoredKey, seen: (json: [UInt8], size: Int)?, current: [UInt8]?)] {
        state.withLock { state in
            guard let table = state.histories[storageID] else { return [] }
            var found: [(key: StoredKey, seen: (json: [UInt8], size: Int)?, current: [UInt8]?)] = []
            for (key, history) in table.keys {
                guard let last = history.versions.last, last.visibleAt(reader) > now else { continue }
                let newest = history.versions.lastIndex(where: { $0.visibleAt(reader) <= now })
                let json = newest.map { history.versions[$0].json } ?? history.base
                let size = newest.map { history.versions[$0].size } ?? history.baseSize
                found.append((key, json.map { ($0, size) }, last.json))
            }
            return found
        }
    }

    // MARK: Streams and TTL

    /// Whether a stream record of `table` created at `created` with `sequence` is readable at
    /// `now`: after a delay of up to the window, drawn per record.
    func streamRecordReadable(table: String, streamID: Int64, sequence: Int64, created: Double, now: Double) -> Bool {
        streamRecordReadableAt(table: table, streamID: streamID, sequence: sequence, created: created) <= now
    }

    /// When the stream record becomes readable (its creation, or later by its drawn delay in
    /// `service` mode; never after a settle that came after it).
    func streamRecordReadableAt(table: String, streamID: Int64, sequence: Int64, created: Double) -> Double {
        state.withLock { state in
            guard state.mode(of: table) == .service, created > state.settledAt else { return created }
            let draws = ConsistencyDraws(seed: state.settings.seed)
            let lag = draws.unit(.streamLag, UInt64(bitPattern: streamID) << 40 ^ UInt64(bitPattern: sequence)) * state.settings.window
            return created + lag
        }
    }

    /// Whether TTL deletes an item of `table` that expired at `expires` by `now`: up to
    /// ``ConsistencySettings/ttlDelay`` seconds later, drawn per item and expiry.
    func expiryDue(table: TableDefinition, key: StoredKey, expires: Double, now: Double) -> Bool {
        state.withLock { state in
            guard state.mode(of: table.name) == .service, expires > state.settledAt else { return true }
            let draws = ConsistencyDraws(seed: state.settings.seed)
            var when = [UInt8](String(table.storageID).utf8)
            when.append(contentsOf: String(expires).utf8)
            let lag = draws.unit(.ttlLag, when, key.partition, key.sort) * state.settings.ttlDelay
            return expires + lag <= now
        }
    }

    /// Hands `records` (one write's, for Kinesis streaming destinations of `table`) to `sink`:
    /// at once, or in `service` mode after a delay of up to the window, in write order.
    func sendKinesisRecords(_ records: [KinesisChangeRecord], table: String, sink: any KinesisRecordSink, clock: ServerClock) {
        let (service, settings) = state.withLock { ($0.mode(of: table) == .service, $0.settings) }
        guard service, settings.window > 0 else { return sink.enqueue(records) }
        kinesis.hold(
            records, sink: sink, now: clock.now(), window: settings.window, draws: ConsistencyDraws(seed: settings.seed), clock: clock)
    }

    // MARK: Control

    /// Makes everything pending visible at once: every version written, every stream record
    /// created and every TTL expiry up to `now`, every Kinesis destination record held.
    /// Returns how many item versions were pending.
    @discardableResult
    package func settle(now: Double) -> Int {
        let versions = state.withLock { state in
            var pending = 0
            for table in state.histories.values {
                for history in table.keys.values where history.settlesAt > now { pending += 1 }
            }
            state.histories = [:]
            state.versionCount = 0
            state.settledAt = max(state.settledAt, now)
            return pending
        }
        kinesis.releaseAll()
        return versions
    }

    /// What is pending at `now`, per table name: items an eventually consistent read of the
    /// table may see as they were, items a global secondary index may, and when the last of
    /// them becomes visible.
    package func pending(now: Double) -> [ConsistencyPending] {
        state.withLock { state in
            var byTable: [String: ConsistencyPending] = [:]
            for table in state.histories.values {
                var entry = byTable[table.name] ?? ConsistencyPending(table: table.name)
                for history in table.keys.values {
                    if history.versions.contains(where: { $0.tableVisibleAt > now }) { entry.items += 1 }
                    if history.versions.contains(where: { $0.indexVisibleAt > now }) { entry.indexEntries += 1 }
                    entry.settlesAt = max(entry.settlesAt ?? now, history.settlesAt)
                }
                if entry.items > 0 || entry.indexEntries > 0 { byTable[table.name] = entry }
            }
            return byTable.values.sorted { $0.table < $1.table }
        }
    }

    /// Per-table modes set through the admin API.
    package var tableModes: [String: ConsistencyMode] { state.withLock { $0.tableModes } }
}

/// One table's pending changes (``ConsistencyModel/pending(now:)``).
package struct ConsistencyPending: Sendable, Equatable {
    package var table: String
    /// Items an eventually consistent read of the table may answer as they were.
    package var items = 0
    /// Items whose global secondary index entries may still show their earlier form.
    package var indexEntries = 0
    /// Stream records not readable yet (``Database/waitingStreamRecords(now:)``).
    package var streamRecords = 0
    /// When the last of them becomes visible.
    package var settlesAt: Double?
}
