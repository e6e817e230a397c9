// store-bench: DynamoStore's costs against LocalDynamo (or any DynamoDB endpoint), for
// scripts/bench (issues 7 and 8). Prints one JSON line with the median over --reps of:
//
//   save_500_ms   one context.save() of 500 new objects (fresh keys each rep; 100 actions per
//                 TransactWriteItems, so 5 transactions); the goal is at most 40 ms
//   query_1000_ms fetching 1,000 objects whose predicate plans a Query (one notebook); the goal
//                 is at most 50 ms
//   scan_1000_ms  fetching 1,000 objects whose predicate plans a Scan of a table holding at least
//                 twice as many (the 1,000 of the query too; scan_table_items says how many)
//
//   store-bench --endpoint http://127.0.0.1:8000 --reps 5
//
// and the write cost of saves, from the ConsumedCapacity (TOTAL) the store asks for on every
// write, summed by a client observer: write units and requests of the 500-object save, of a
// one-object insert and of a one-object update (each the goal of one request).
//
// Each timing also comes as the client process's CPU time (`*_cpu_ms`, medians): the client's
// own cost, steadier than the wall clock on a loaded machine.
//
// Fetches run in a fresh context each rep, so every object is read and materialized. Every
// count is checked; a wrong count, a plan other than the expected one, or any error ends the
// run with exit status 1.
import DynamoClient
import DynamoStore
import Foundation
import Synchronization

/// Sums the write units and counts the write requests the client reports.
final class WriteMeter: DynamoClientObserver {
    private static let writes: Set<String> = ["PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"]
    private let totals = Mutex<(units: Double, requests: Int)>((0, 0))

    func operationDidFinish(_ report: OperationReport) {
        guard Self.writes.contains(report.operation) else { return }
        totals.withLock { $0 = ($0.units + (report.totalCapacityUnits ?? 0), $0.requests + 1) }
    }

    /// The write units and requests of `operation`.
    func measure(_ operation: () async throws -> Void) async rethrows -> (units: Double, requests: Int) {
        let before = totals.withLock { $0 }
        try await operation()
        let after = totals.withLock { $0 }
        return (after.units - before.units, after.requests - before.requests)
    }
}

/// A note in a notebook: hash key `notebook`, range key `seq`, so one notebook is one Query.
final class Note: ManagedObject {
    override class var mapping: EntityMapping {
        EntityMapping(hashKey: "notebook", rangeKey: "seq", version: "version", tableName: "StoreBenchNotes")
    }
    @Attribute var notebook: String
    @Attribute var seq: Int = 0
    @Attribute var tag: String
    @Attribute var body: String
    @Attribute var at = Date()
    @Attribute var version: Int64 = 0
}

struct Options {
    var endpoint = "http://127.0.0.1:8000"
    var reps = 5

    /// Reads `--endpoint URL` and `--reps N` (flag and value pairs, in any order).
    init(_ arguments: [String]) throws {
        guard arguments.count % 2 == 0 else { throw Failure("every option takes a value: \(arguments)") }
        for (flag, value) in zip(arguments.striding(), arguments.dropFirst().striding()) {
            if flag == "--endpoint" {
                endpoint = value
            } else if flag == "--reps", let count = Int(value), count > 0 {
                reps = count
            } else {
                throw Failure("unknown option or bad value: \(flag) \(value) (--endpoint URL --reps N)")
            }
        }
    }
}

extension Collection {
    /// Every second element, from the first.
    func striding() -> [Element] { enumerated().filter { $0.offset % 2 == 0 }.map(\.element) }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

let body = String(repeating: "lorem ipsum ", count: 8)

/// Inserts `count` notes into `context`; `notebook(i)` picks each one's notebook.
func insertNotes(_ context: ObjectContext, count: Int, tag: String, notebook: (Int) -> String) {
    for index in 0..<count {
        let note = Note(context: context)
        note.notebook = notebook(index)
        note.seq = index
        note.tag = tag
        note.body = body
    }
}

/// The CPU time this process has used, in milliseconds (all its threads; the server is
/// another process).
func processCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

/// Milliseconds that `operation` took, on the wall clock and in this process's CPU time: the
/// CPU time is the client's own cost, steadier than the wall clock on a loaded machine.
func measured(_ operation: () async throws -> Void) async rethrows -> (wall: Double, cpu: Double) {
    let clock = ContinuousClock()
    let cpuBefore = processCPUMilliseconds()
    let elapsed = try await clock.measure { try await operation() }
    let cpu = processCPUMilliseconds() - cpuBefore
    return (Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15, cpu)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Fetches with `request` in a fresh context and checks the plan and the count.
func timedFetch(
    _ store: DynamoStore, _ request: FetchRequest<Note>, expect operation: FetchPlan.Operation,
    count: Int
) async throws -> (wall: Double, cpu: Double) {
    guard request.explain().operation == operation else {
        throw Failure("expected a \(operation.rawValue) plan, got: \(request.explain())")
    }
    let context = ObjectContext(store: store)
    var notes: [Note] = []
    let time = try await measured { notes = try await context.fetch(request) }
    guard notes.count == count else { throw Failure("\(operation.rawValue) fetched \(notes.count) notes, not \(count)") }
    return time
}

func run(_ options: Options) async throws -> [String: Any] {
    var configuration = DynamoClient.Configuration(
        region: "us-east-1", endpoint: options.endpoint,
        credentials: AWSCredentials(accessKeyID: "localdynamo", secretAccessKey: "localdynamo"))
    let meter = WriteMeter()
    configuration.observer = meter
    let client = try DynamoClient(configuration: configuration)
    let store = try DynamoStore(types: [Note.self], client: client)
    try await store.createTables(pollInterval: .milliseconds(20))
    // Keys and tags of this run only, so a server that already holds an earlier run's notes
    // still gives exact counts.
    let run = UUID().uuidString.prefix(8)
    let queryNotebook = "query-\(run)"
    let scanTag = "scan-\(run)"

    let setup = ObjectContext(store: store)
    setup.undoManager = nil
    insertNotes(setup, count: 1_000, tag: "query-\(run)") { _ in queryNotebook }
    insertNotes(setup, count: 1_000, tag: scanTag) { "scan-\(run)-\($0 / 10)" }
    try await setup.save()
    let tableItems = try await ObjectContext(store: store).count(for: FetchRequest<Note>(in: store.model))

    var byQuery = try FetchRequest<Note>(in: store.model, predicate: FetchPredicate("notebook == %@", queryNotebook))
    byQuery.includesPendingChanges = false
    var byScan = try FetchRequest<Note>(in: store.model, predicate: FetchPredicate("tag == %@", scanTag))
    byScan.includesPendingChanges = false

    var saves: [(wall: Double, cpu: Double)] = [], queries: [(wall: Double, cpu: Double)] = [], scans: [(wall: Double, cpu: Double)] = []
    var saveCost = (units: 0.0, requests: 0)
    for _ in 0..<options.reps {
        queries.append(try await timedFetch(store, byQuery, expect: .query, count: 1_000))
        scans.append(try await timedFetch(store, byScan, expect: .scan, count: 1_000))
    }
    // Saves last, so the scanned table holds the same notes on every rep.
    for rep in 0..<options.reps {
        let notebook = "save-\(run)-\(rep)"
        let context = ObjectContext(store: store)
        context.undoManager = nil
        insertNotes(context, count: 500, tag: "save-\(run)") { _ in notebook }
        var time = (wall: 0.0, cpu: 0.0)
        saveCost = try await meter.measure { time = try await measured { try await context.save() } }
        saves.append(time)
        let stored = try await ObjectContext(store: store).count(
            for: FetchRequest<Note>(in: store.model, predicate: FetchPredicate("notebook == %@", notebook)))
        guard stored == 500 else { throw Failure("the save stored \(stored) notes, not 500") }
    }
    // One object: an insert, then an update of one attribute.
    let single = ObjectContext(store: store)
    insertNotes(single, count: 1, tag: "single-\(run)") { _ in "single-\(run)" }
    let insert = try await meter.measure { try await single.save() }
    for note in single.registeredObjects { (note as? Note)?.tag = "changed" }
    let update = try await meter.measure { try await single.save() }
    return [
        "reps": options.reps,
        "save_500_wcu": saveCost.units, "save_500_requests": saveCost.requests,
        "single_insert_wcu": insert.units, "single_insert_requests": insert.requests,
        "single_update_wcu": update.units, "single_update_requests": update.requests,
        "query_goal_ms": 50,
        "save_500_ms": median(saves.map(\.wall)), "query_1000_ms": median(queries.map(\.wall)),
        "scan_1000_ms": median(scans.map(\.wall)),
        "save_500_runs_ms": saves.map(\.wall), "query_1000_runs_ms": queries.map(\.wall), "scan_1000_runs_ms": scans.map(\.wall),
        "save_500_cpu_ms": median(saves.map(\.cpu)), "query_1000_cpu_ms": median(queries.map(\.cpu)),
        "scan_1000_cpu_ms": median(scans.map(\.cpu)),
        "scan_table_items": tableItems, "save_goal_ms": 40,
    ]
}

/// Ends the run: status 2 for bad options, 1 for anything that went wrong while measuring.
func fail(_ error: any Error, status: Int32) -> Never {
    FileHandle.standardError.write(Data("store-bench: \(error)\n".utf8))
    exit(status)
}

let options: Options
do { options = try Options(Array(CommandLine.arguments.dropFirst())) } catch { fail(error, status: 2) }
do {
    let data = try JSONSerialization.data(withJSONObject: try await run(options), options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} catch {
    fail(error, status: 1)
}
