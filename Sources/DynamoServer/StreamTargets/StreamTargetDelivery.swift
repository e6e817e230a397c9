import DynamoAPI
import DynamoEngine
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// `serve --stream-target TABLE=URL`: where one table's stream records are delivered.
package struct StreamTarget: Sendable, Equatable {
    package var table: String
    package var endpoint: HTTPEndpoint

    /// Parses `TABLE=http://host:port/path`.
    package init?(parsing text: String) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, let endpoint = HTTPEndpoint(parts[1]) else { return nil }
        table = parts[0]
        self.endpoint = endpoint
    }
}

/// Delivers each target table's stream records to its endpoint as AWS Lambda receives them from
/// a DynamoDB event source (`{"Records": [...]}`, each record with its `eventSourceARN`), in
/// order per shard and parents before children, in batches of at most `batchSize`. A delivery
/// that fails (no connection, or a status other than 2xx) is retried with exponential backoff
/// (0.1 s doubling to 5 s) until it succeeds; later records wait, as they do for a Lambda
/// event source mapping. Reads run on the database thread pool, posts on NIO's event loops.
///
/// A failure that goes on (a target that keeps refusing, a stream that cannot be read) is
/// logged when it starts, then at most once a minute on the server's clock with how many
/// failures there were meanwhile, and once at info level when it ends (``RepeatedFailureLog``).
///
/// Progress is kept in memory: a restarted server delivers from each shard's trim horizon again.
final class StreamTargetDelivery: Sendable {
    private let engine: DynamoEngine
    private let threadPool: NIOThreadPool
    private let targets: [StreamTarget]
    private let batchSize: Int
    private let logger: Logger
    private let tasks = Mutex<[Task<Void, Never>]>([])

    init(engine: DynamoEngine, threadPool: NIOThreadPool, targets: [StreamTarget], batchSize: Int, logger: Logger) {
        self.engine = engine
        self.threadPool = threadPool
        self.targets = targets
        self.batchSize = batchSize
        self.logger = logger
    }

    /// What has been delivered of one table's streams in one namespace.
    struct Cursor: Sendable {
        /// The last delivered sequence number per shard (`<stream ARN> <shard id>`).
        var delivered: [String: String] = [:]
        /// Shards that are closed and fully delivered.
        var finished: Set<String> = []
    }

    /// Records of one shard, ready to post.
    struct Batch: Sendable {
        var streamARN: String
        var shardKey: String
        var records: [StreamsRecord]
    }

    func start() {
        let started = targets.map { target in
            Task { [self] in await run(target) }
        }
        tasks.withLock { $0 = started }
    }

    func stop() async {
        let running = tasks.withLock { current -> [Task<Void, Never>] in
            defer { current = [] }
            return current
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    private func run(_ target: StreamTarget) async {
        var cursors: [String: Cursor] = [:]
        var readFailures: [String: RepeatedFailureLog] = [:]
        var deliveryFailures = RepeatedFailureLog()
        let endpoint = "\(target.endpoint.host):\(target.endpoint.port)\(target.endpoint.path)"
        let group = MultiThreadedEventLoopGroup.singleton
        while !Task.isCancelled {
            var deliveredSomething = false
            for (namespace, database) in engine.openDatabases.sorted(by: { $0.key < $1.key }) {
                let cursor = cursors[namespace] ?? Cursor()
                let table = target.table, limit = batchSize
                let updated: Cursor
                let batch: Batch?
                do {
                    (updated, batch) = try await threadPool.runIfActive {
                        try Self.nextBatch(database, table: table, cursor: cursor, limit: limit)
                    }
                } catch {
                    // Read again on the next pass (every 200 ms); a table without a stream is no
                    // error here.
                    let action = readFailures[namespace, default: RepeatedFailureLog()].failed(now: engine.clock.now())
                    log(
                        action, "stream target: reading the table's stream",
                        metadata: ["table": "\(table)", "namespace": "\(namespace)", "error": "\(error)"])
                    continue
                }
                if let action = readFailures[namespace]?.succeeded() {
                    log(action, "stream target: reading the table's stream", metadata: ["table": "\(table)", "namespace": "\(namespace)"])
                    readFailures[namespace] = nil
                }
                cursors[namespace] = updated
                guard let batch else { continue }
                guard await deliver(batch, to: target.endpoint, group: group, failures: &deliveryFailures) else { return }
                log(deliveryFailures.succeeded(), "stream target delivery", metadata: ["endpoint": "\(endpoint)"])
                cursors[namespace]?.delivered[batch.shardKey] = batch.records.last?.dynamodb?.sequenceNumber
                deliveredSomething = true
            }
            if !deliveredSomething { try? await Task.sleep(for: .milliseconds(200)) }
        }
    }

    /// Posts a batch until the endpoint accepts it; `false` when cancelled first. Each failed
    /// post is told to `failures` (the caller tells it the success).
    private func deliver(
        _ batch: Batch, to endpoint: HTTPEndpoint, group: any EventLoopGroup, failures: inout RepeatedFailureLog
    ) async -> Bool {
        let body = Self.lambdaEvent(batch)
        let named = "\(endpoint.host):\(endpoint.port)\(endpoint.path)"
        var delay = 0.1
        while !Task.isCancelled {
            do {
                let status = try await HTTPPoster.post(body, to: endpoint, group: group)
                if (200..<300).contains(status) { return true }
                log(
                    failures.failed(now: engine.clock.now()), "stream target delivery",
                    metadata: ["endpoint": "\(named)", "error": "refused a batch with status \(status)"])
            } catch {
                log(
                    failures.failed(now: engine.clock.now()), "stream target delivery",
                    metadata: ["endpoint": "\(named)", "error": "unreachable: \(error)"])
            }
            try? await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
            delay = min(delay * 2, 5)
        }
        return false
    }

    /// Logs what `action` says about a repeated failure of `what`: a warning when it starts and
    /// while it goes on (with the count since the last line), an info line when it ends.
    private func log(_ action: RepeatedFailureLog.Action, _ what: String, metadata: Logger.Metadata) {
        var metadata = metadata
        switch action {
        case .none:
            return
        case .firstFailure:
            logger.warning("\(what) failed; retrying (logged again at most once a minute)", metadata: metadata)
        case .stillFailing(let failures):
            metadata["failures_since_last_line"] = "\(failures)"
            logger.warning("\(what) still failing", metadata: metadata)
        case .recovered(let failures):
            metadata["failures"] = "\(failures)"
            logger.info("\(what) works again", metadata: metadata)
        }
    }

    /// `{"Records": [...]}`: each record as GetRecords returns it plus `eventSourceARN`.
    static func lambdaEvent(_ batch: Batch) -> [UInt8] {
        let records: [JSONValue] = batch.records.map { record in
            guard case .object(var members)? = try? JSONValue(parsing: record.jsonBytes) else { return .null }
            members["eventSourceARN"] = .string(batch.streamARN)
            return .object(members)
        }
        return Array(JSONValue.object(["Records": .array(records)]).serialized.utf8)
    }

    /// The next undelivered records of `table`'s streams (oldest stream first, each shard after
    /// its parent), and the cursor with newly drained shards marked finished.
    static func nextBatch(_ database: Database, table: String, cursor: Cursor, limit: Int) throws -> (Cursor, Batch?) {
        var cursor = cursor
        guard let streams = try? database.listStreams(StreamsListStreamsInput(tableName: table)).streams else {
            return (cursor, nil)
        }
        for stream in streams.reversed() {
            guard let arn = stream.streamArn,
                let shards = try database.describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription?.shards
            else { continue }
            for shard in shards {
                guard let shardID = shard.shardId else { continue }
                let key = "\(arn) \(shardID)"
                if cursor.finished.contains(key) { continue }
                let after = cursor.delivered[key]
                let iterator: String?
                do {
                    iterator = try database.getShardIterator(
                        StreamsGetShardIteratorInput(
                            streamArn: arn, shardId: shardID, shardIteratorType: after == nil ? .trimHorizon : .afterSequenceNumber,
                            sequenceNumber: after)
                    ).shardIterator
                } catch let error as DynamoError where error.code == .resourceNotFound || error.code.rawValue == "TrimmedDataAccessException" {
                    // Trimmed past what was delivered, or gone: go on from what is still there.
                    cursor.delivered[key] = nil
                    continue
                }
                guard let iterator else { continue }
                let page = try database.getRecords(StreamsGetRecordsInput(shardIterator: iterator, limit: limit))
                if let records = page.records, !records.isEmpty {
                    return (cursor, Batch(streamARN: arn, shardKey: key, records: records))
                }
                if page.nextShardIterator == nil { cursor.finished.insert(key) } else { break }
            }
        }
        return (cursor, nil)
    }
}
