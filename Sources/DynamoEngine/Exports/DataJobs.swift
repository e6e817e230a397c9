import DynamoAPI
import Dispatch
import Logging
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization

/// A namespace's export and import jobs: where they read and write (the object store behind
/// `serve --s3-dir`), where they log, and the background queue they run on, off the event
/// loops and off the request thread pool. Job descriptions live in the `data_jobs` table.
package final class DataJobs: Sendable {
    private struct Settings: Sendable {
        var objectStore: (any ObjectStore)?
        var logger = Logger(label: "localdynamo.jobs")
    }

    private let settings = Mutex(Settings())
    private let queue = DispatchQueue(label: "localdynamo.data-jobs", qos: .utility)
    private let running = Mutex(0)
    /// Every job this process claimed, finished or not: a job recorded IN_PROGRESS that is not
    /// here was cut short by a restart. Never shrinks, so a reader that saw a job IN_PROGRESS
    /// just before it finished cannot mistake it for an interrupted one (it did, when finished
    /// jobs left this set: a DescribeExport racing the job's end answered FAILED).
    private let claimed = Mutex<Set<String>>([])
    /// Bulk puts run beside each other and beside exports and imports (a paced one waits on the
    /// server clock for most of its life), each on a thread of this queue.
    private let bulkQueue = DispatchQueue(label: "localdynamo.bulk-operations", qos: .utility, attributes: .concurrent)
    private let bulkGroup = DispatchGroup()
    /// Bulk operations whose cancellation was accepted (CANCELLING), so a job waiting on the
    /// clock notices without reading its record.
    private let cancelRequests = Mutex<Set<String>>([])
    /// Set when the engine closes: running bulk puts stop before their next batch and leave
    /// their record IN_PROGRESS, which the next process settles as FAILED (as after a crash).
    private let stopping = Mutex(false)

    package init() {}

    /// Sets the object store and logger (the engine does when it opens the database).
    package func configure(objectStore: (any ObjectStore)?, logger: Logger) {
        settings.withLock { $0 = Settings(objectStore: objectStore, logger: logger) }
    }

    var objectStore: (any ObjectStore)? { settings.withLock { $0.objectStore } }
    var logger: Logger { settings.withLock { $0.logger } }

    /// The object store, if it holds `bucket`.
    /// - Throws: `S3NoSuchBucket` without a store (no `--s3-endpoint`, no `--s3-dir`) or without
    ///   the bucket.
    func store(holding bucket: String) throws(ObjectStoreError) -> any ObjectStore {
        guard let store = objectStore else {
            throw ObjectStoreError(
                code: "S3NoSuchBucket",
                message:
                    "The specified bucket does not exist (the server runs without an S3 endpoint: start it with --s3-endpoint URL, AWS_ENDPOINT_URL_S3 or --s3-dir DIR)"
            )
        }
        guard store.bucketExists(bucket) else {
            throw ObjectStoreError(code: "S3NoSuchBucket", message: "The specified bucket does not exist")
        }
        return store
    }

    /// Marks a job as running in this process (before its IN_PROGRESS description is stored).
    func claim(_ arn: String) {
        claimed.withLock { _ = $0.insert(arn) }
    }

    /// Whether this process started the job (a job recorded IN_PROGRESS that it did not start
    /// was interrupted by a restart).
    func startedHere(_ arn: String) -> Bool {
        claimed.withLock { $0.contains(arn) }
    }

    /// Runs a claimed job's `work` on the jobs' queue, one job after another.
    func start(_ arn: String, _ work: @escaping @Sendable () -> Void) {
        running.withLock { $0 += 1 }
        queue.async { [self] in
            work()
            running.withLock { $0 -= 1 }
        }
    }

    /// Runs a claimed bulk operation's `work` on its own thread of the bulk queue.
    func startBulk(_ work: @escaping @Sendable () -> Void) {
        running.withLock { $0 += 1 }
        bulkQueue.async(group: bulkGroup) { [self] in
            work()
            running.withLock { $0 -= 1 }
        }
    }

    /// Makes running bulk puts stop before their next batch (the engine is closing).
    package func stopBulkJobs() {
        stopping.withLock { $0 = true }
    }

    /// Whether bulk puts must stop (the engine is closing).
    var isStopping: Bool { stopping.withLock { $0 } }

    /// Notes that a bulk operation's cancellation was accepted.
    func requestCancel(_ arn: String) {
        cancelRequests.withLock { _ = $0.insert(arn) }
    }

    /// Whether a bulk operation's cancellation was accepted.
    func cancelRequested(_ arn: String) -> Bool {
        cancelRequests.withLock { $0.contains(arn) }
    }

    /// The message of a job the server stopped before it finished.
    static let interrupted = "The server stopped before the job finished"

    /// Blocks until every job started so far has finished (tests).
    package func waitUntilIdle() {
        queue.sync {}
        bulkGroup.wait()
    }

    /// A failed job's `FailureCode` and `FailureMessage`: S3's code for an object-store error,
    /// the error's name for a DynamoDB error, `UNKNOWN` otherwise.
    static func failure(_ error: any Error) -> (code: String, message: String) {
        if let failure = error as? ObjectStoreError { return (failure.code, failure.message) }
        if let failure = error as? DynamoError { return (failure.code.rawValue, failure.message ?? "") }
        return ("UNKNOWN", "\(error)")
    }

    /// How many jobs are queued or running.
    package var pending: Int { running.withLock { $0 } }
}

extension Database {
    /// Stores (or replaces) a job's description, shape JSON in `data_jobs`.
    func saveJob(arn: String, kind: String, started: Double, description: [UInt8]) throws {
        try write { state in
            try state.connection.statement(
                "INSERT OR REPLACE INTO data_jobs (arn, kind, started_micros, record) VALUES (?, ?, ?, ?)"
            )
            .bind(.text(arn), .text(kind), .integer(Micros.from(started)), .blob(description)).run()
        }
    }

    /// Records a finished job's description, logging a failure (and a failure to record it).
    func finishJob(arn: String, kind: String, started: Timestamp?, description: [UInt8], failed: Bool) {
        if failed {
            dataJobs.logger.warning("job failed", metadata: ["job": "\(arn)", "description": "\(String(decoding: description, as: UTF8.self))"])
        }
        do {
            try saveJob(arn: arn, kind: kind, started: started?.secondsSince1970 ?? 0, description: description)
        } catch {
            dataJobs.logger.error("cannot record job", metadata: ["job": "\(arn)", "error": "\(error)"])
        }
    }

    /// One page of jobs (or anything with an ARN) after the `NextToken` ARN, and the next token.
    static func page<Job>(
        _ all: [Job], after token: String?, size: Int,
        arn: (Job) -> String?
    ) throws -> (page: [Job], next: String?) {
        var rest = all[...]
        if let token {
            guard let position = all.firstIndex(where: { arn($0) == token }) else {
                throw EngineMessages.invalidNextToken
            }
            rest = all[(position + 1)...]
        }
        let page = Array(rest.prefix(size))
        return (page, page.count < rest.count ? page.last.flatMap(arn) : nil)
    }

    /// The stored descriptions of one kind of job, oldest first.
    func jobs(kind: String) throws -> [(arn: String, description: JSONValue)] {
        try read { connection in
            let statement = try connection.statement(
                "SELECT arn, record FROM data_jobs WHERE kind = ? ORDER BY started_micros, arn"
            ).bind(.text(kind))
            var found: [(arn: String, description: JSONValue)] = []
            while try statement.step() {
                found.append((statement.text(0), try JSONValue(parsing: statement.blob(1))))
            }
            return found
        }
    }
}

/// Ids of backups, exports and imports: the creation time in milliseconds (14 digits), a dash
/// and eight hex digits.
enum TimestampedID {
    static func make(now: Double) -> String {
        let millis = String(Int64(now * 1000))
        let padded = String(repeating: "0", count: max(0, 14 - millis.count)) + millis
        return "\(padded)-\(UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(8))"
    }
}
