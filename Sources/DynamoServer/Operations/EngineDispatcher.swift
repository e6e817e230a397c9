import DynamoAPI
import DynamoEngine
import Logging
import NIOPosix

/// The dispatcher that runs DynamoDB operations on the engine.
///
/// Decodes and validates each request body into its input shape, resolves the request's
/// namespace, runs the (blocking) engine call where ``DispatchPolicy`` places it and renders the
/// output: reads bounded by a few items run right on the connection's event loop (answered by
/// ``dispatchImmediately(_:body:context:)``), item writes on the namespace's writer thread (group
/// commit; on the loop when the writer is idle, and always in memory), everything else on the
/// dedicated thread pool. A request with a body over the server's inline limit (parsed on NIO's
/// thread pool first), a request that arrives off an event loop, or one while faults are armed
/// takes the asynchronous path, where the policy's event-loop operations (item writes too, in
/// memory) run on the pool and item writes to files on the writer thread.
package final class EngineDispatcher: DynamoDispatcher {
    private let engine: DynamoEngine
    /// How the engine keeps its databases (where item writes run).
    private let storage: DispatchPolicy.Storage
    private let threadPool: NIOThreadPool
    private let logger: Logger
    private let faults: FaultInjector
    /// Capacity throttling (`--throttle`); `nil` never throttles.
    private let throttle: CapacityThrottle?

    /// Every operation this server implements, by wire name.
    static let operations: [String: Operation] = [
        coreOperations, BackupOperations.rows, DataTransferOperations.rows, SettingsOperations.rows,
        GlobalTableOperations.rows,
    ].reduce(into: [:]) { table, rows in
        // One row per operation: a name in two tables is a programming error, not a silent pick.
        table.merge(rows) { _, _ in preconditionFailure("an operation has two rows in EngineDispatcher's tables") }
    }

    /// The operations of the first release (item, table, batch and transaction operations …).
    private static let coreOperations: [String: Operation] = [
        "CreateTable": TableOperations.createTable,
        "DescribeTable": TableOperations.describeTable,
        "ListTables": TableOperations.listTables,
        "DeleteTable": TableOperations.deleteTable,
        "UpdateTable": TableOperations.updateTable,
        "PutItem": ItemOperations.putItem,
        "GetItem": ItemOperations.getItem,
        "DeleteItem": ItemOperations.deleteItem,
        "UpdateItem": ItemOperations.updateItem,
        "BatchGetItem": BatchOperations.batchGetItem,
        "TransactWriteItems": TransactionOperations.transactWriteItems,
        "TransactGetItems": TransactionOperations.transactGetItems,
        "Query": ReadOperations.query,
        "Scan": ReadOperations.scan,
        "BatchWriteItem": BatchOperations.batchWriteItem,
        "TagResource": ManagementOperations.tagResource,
        "UntagResource": ManagementOperations.untagResource,
        "ListTagsOfResource": ManagementOperations.listTagsOfResource,
        "DescribeTimeToLive": ManagementOperations.describeTimeToLive,
        "UpdateTimeToLive": ManagementOperations.updateTimeToLive,
        "DescribeEndpoints": ManagementOperations.describeEndpoints,
        "DescribeLimits": ManagementOperations.describeLimits,
        "ExecuteStatement": PartiQLOperations.executeStatement,
        "BatchExecuteStatement": PartiQLOperations.batchExecuteStatement,
        "ExecuteTransaction": PartiQLOperations.executeTransaction,
    ]

    /// One operation: decodes its input from the body and runs it against a database.
    typealias Operation = @Sendable (DynamoRequestBody, OperationContext) throws -> [UInt8]

    /// The operations of DynamoDB Streams (`X-Amz-Target: DynamoDBStreams_20120810.<name>`),
    /// served on the same port; all of them run on the thread pool.
    static let streamsOperations: [String: Operation] = [
        "ListStreams": StreamsOperations.listStreams,
        "DescribeStream": StreamsOperations.describeStream,
        "GetShardIterator": StreamsOperations.getShardIterator,
        "GetRecords": StreamsOperations.getRecords,
    ]

    /// The usual row of the operation table: decode the generated input shape (DynamoDB's
    /// serialization and constraint checks), run the engine, encode the generated output shape.
    ///
    /// ```swift
    /// "DescribeLimits": shaped { (input: DescribeLimitsInput, context) in
    ///     context.database.describeLimits(input)
    /// },
    /// ```
    static func shaped<Input: DynamoShape, Output: DynamoShape>(
        _ run: @escaping @Sendable (Input, OperationContext) throws -> Output
    ) -> Operation {
        { body, context in try run(Input.decodeRequest(body), context).jsonBytes }
    }

    package init(
        engine: DynamoEngine, threadPool: NIOThreadPool, logger: Logger,
        faults: FaultInjector = FaultInjector(), throttle: CapacityThrottle? = nil
    ) {
        self.throttle = throttle
        self.engine = engine
        self.storage =
            engine.storage == .inMemory ? .memory : engine.syncMode == .full ? .syncedFiles : .files
        self.threadPool = threadPool
        self.logger = logger
        self.faults = faults
    }

    /// The operation a target names, if this server implements it.
    static func operation(for target: DynamoTarget) -> Operation? {
        switch target.service {
        case .dynamoDB: operations[target.operation]
        case .dynamoDBStreams: streamsOperations[target.operation]
        }
    }

    package func supports(target: DynamoTarget) -> Bool {
        Self.operation(for: target) != nil
    }

    package func dispatch(_ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext) async -> DynamoResult {
        guard let operation = Self.operation(for: target) else {
            return .failure(DynamoError(.unknownOperation))
        }
        var conflict: String?
        if faults.isArmed, let fault = faults.fault(operation: target.operation, tables: FaultInjector.tables(in: body.json)) {
            if fault.latencyMilliseconds > 0 { try? await Task.sleep(for: .milliseconds(fault.latencyMilliseconds)) }
            if let error = fault.error { return .failure(error) }
            conflict = fault.conflictTable
        }
        do {
            let call = try prepare(operation, named: target.operation, body: body, context: context, conflict: conflict)
            switch DispatchPolicy.placement(of: target, storage: storage) {
            case .writer, .eventLoopIfWriterIdle:
                let database = try database(for: context)
                return .success(
                    try await withCheckedThrowingContinuation { continuation in
                        database.enqueueWrite({ try call(database) }) { continuation.resume(with: $0) }
                    })
            case .eventLoop, .eventLoopUnlessHandedBack, .pool:
                // Event-loop operations here arrived off a loop, or with faults armed.
                return .success(try await threadPool.runIfActive { try call(self.database(for: context)) })
            }
        } catch {
            return failure(error, target: target, context: context)
        }
    }

    /// Runs the event-loop operations of ``DispatchPolicy`` right here when called on an event
    /// loop (the server calls this on the connection's loop before it would start a task for
    /// ``dispatch(_:body:context:)``); `nil` sends every other request there.
    package func dispatchImmediately(
        _ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext
    ) -> DynamoResult? {
        let placement = DispatchPolicy.placement(of: target, storage: storage)
        guard !faults.isArmed, let operation = Self.operations[target.operation],
            MultiThreadedEventLoopGroup.currentEventLoop != nil,
            placement == .eventLoop || placement == .eventLoopIfWriterIdle
                // Conflicts are armed before the operation runs: never twice for a handed-back request.
                || (placement == .eventLoopUnlessHandedBack && context.headers[Self.conflictHeader] == nil)
        else { return nil }
        do {
            let call = try prepare(operation, named: target.operation, body: body, context: context)
            let database = try database(for: context)
            guard placement == .eventLoopIfWriterIdle else { return .success(try call(database)) }
            // A busy writer: nothing ran (no conflict armed either); the write joins its queue.
            return try database.writeNowIfIdle { try call(database) }.map { .success($0) }
        } catch is Database.PartiQLReadsMoreThanOneItem, is Database.StatisticsNotCounted {
            // Not a SELECT of one item by its key, or a table's rows to count: the request goes
            // to the pool untouched.
            return nil
        } catch {
            return failure(error, target: target, context: context)
        }
    }

    /// The namespace's database of a request.
    private func database(for context: DynamoRequestContext) throws -> Database {
        try engine.database(accessKeyID: context.accessKeyID, region: context.region.isEmpty ? nil : context.region)
    }

    /// The engine call of one request, ready to run on any thread against its database.
    private func prepare(
        _ operation: @escaping Operation, named name: String, body: DynamoRequestBody, context: DynamoRequestContext,
        conflict: String? = nil
    ) throws -> @Sendable (Database) throws -> [UInt8] {
        let engine = engine
        let throttle = throttle
        let now = engine.clock.now()
        let conflicts =
            try (context.headers[Self.conflictHeader].map(Self.parseConflicts) ?? [])
            + (conflict.map { [($0, 1)] } ?? [])
        return { database in
            for (table, count) in conflicts { database.injectTransactionConflicts(table: table, count: count) }
            guard let throttle else { return try operation(body, OperationContext(database: database, now: now)) }
            // Throttling reads (and for a batch, trims) the JSON tree: the generic decoder runs.
            return try throttle.run(operation: name, body: body.json, database: database, now: engine.clock.now()) { json in
                try operation(DynamoRequestBody(json: json), OperationContext(database: database, now: now))
            }
        }
    }

    /// A thrown error as the request's answer: a `DynamoError` as itself, anything else as a
    /// logged 500.
    private func failure(_ error: any Error, target: DynamoTarget, context: DynamoRequestContext) -> DynamoResult {
        if let error = error as? DynamoError { return .failure(error) }
        // The type only below trace: an error's description may quote item data. SQLite's own
        // messages ("database or disk is full", "disk I/O error") name no values (they are
        // bound, never part of the statement), and are what an operator needs to see.
        var metadata: Logger.Metadata = [
            "operation": "\(target.operation)", "requestID": "\(context.requestID)", "error_type": "\(type(of: error))",
        ]
        if let sqlite = error as? SQLiteError {
            metadata["error"] = "\(sqlite)"
            // Answered once (a 500, never retried here): a lock within the writer's own connection
            // is a bug to report, a busy one means another process shares the file.
            if sqlite.isLocked { metadata["conflict"] = "SQLITE_LOCKED: within one connection, not retryable" }
            if sqlite.isBusy { metadata["conflict"] = "SQLITE_BUSY: another connection held the lock past the busy timeout" }
        }
        logger.error("operation failed", metadata: metadata)
        logger.trace("operation failed", metadata: ["requestID": "\(context.requestID)", "error": "\(error)"])
        return .failure(ServerMessages.internalServerError)
    }
}

extension EngineDispatcher {
    /// A test-only header: `X-LocalDynamo-Transaction-Conflicts: Orders=2, Stock=1` makes the next
    /// two writes to `Orders` (and the next one to `Stock`) in the request's namespace conflict
    /// as if another transaction held the items: a TransactWriteItems fails with
    /// `TransactionCanceledException` and `TransactionConflict` reasons, a PutItem, UpdateItem or
    /// DeleteItem with `TransactionConflictException`, as in DynamoDB; `=0` disarms. It is read
    /// on any request, before the operation runs. `serve --transaction-conflicts` arms the same
    /// at startup.
    static let conflictHeader = "X-LocalDynamo-Transaction-Conflicts"

    private static func trimmingSpaces(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    static func parseConflicts(_ header: String) throws(DynamoError) -> [(String, Int)] {
        var conflicts: [(String, Int)] = []
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map(Self.trimmingSpaces)
            guard pieces.count == 2, !pieces[0].isEmpty, let count = Int(pieces[1]), count >= 0 else {
                throw ServerMessages.invalidConflictHeader(conflictHeader: conflictHeader, header: header)
            }
            conflicts.append((pieces[0], count))
        }
        return conflicts
    }
}

/// What an operation needs besides its input.
struct OperationContext {
    let database: Database
    /// Seconds since 1970, fixed for the whole request.
    let now: Double
}

extension EngineDispatcher {
    /// Every operation name this dispatcher answers (DynamoDB and DynamoDB Streams), for the
    /// per-operation series of `/metrics`.
    package static var operationNames: [String] { Array(operations.keys) + Array(streamsOperations.keys) }
}
