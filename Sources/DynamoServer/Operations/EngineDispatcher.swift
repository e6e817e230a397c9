import DynamoAPI
import DynamoEngine
import Logging
import NIOPosix

/// The dispatcher that runs DynamoDB operations on the engine.
///
/// Each request goes through its operation's row (``OperationRow``, reached through the
/// generated switch of `OperationTable.swift`): the body is decoded into the input shape, the
/// placement is read from the typed input, the engine call runs where ``DispatchPolicy`` places
/// it, and the output is encoded after that call returned (for an item write, after the writer's
/// lock was let go). Reads bounded by a few items run right on the connection's event loop
/// (answered by ``dispatchImmediately(_:body:context:)``), item writes on the namespace's writer
/// thread (group commit; on the loop when the writer is idle, and always in memory), everything
/// else on the dedicated thread pool. A request with a body over the server's inline limit
/// (parsed on NIO's thread pool first), a request that arrives off an event loop, or one while
/// faults are armed takes the asynchronous path, where event-loop operations (item writes too,
/// in memory) run on the pool and item writes to files on the writer thread.
package final class EngineDispatcher: DynamoDispatcher {
    private let engine: DynamoEngine
    /// How the engine keeps its databases (where item writes run).
    private let storage: DispatchPolicy.Storage
    private let threadPool: NIOThreadPool
    private let logger: Logger
    private let faults: FaultInjector
    /// Capacity throttling (`--throttle`); `nil` never throttles.
    private let throttle: CapacityThrottle?
    /// The wording errors are answered in (`serve --error-wording`).
    package let errorWording: ErrorWording

    /// The operation a wire name names, in either service.
    enum Named: Sendable {
        case dynamoDB(DynamoOperation)
        case streams(DynamoStreamsOperation)

        /// Hands `visitor` the operation's row.
        func withRow<Visitor: OperationRowVisitor>(_ visitor: Visitor) -> Visitor.Result {
            switch self {
            case .dynamoDB(let operation): operation.withRow(visitor)
            case .streams(let operation): operation.withRow(visitor)
            }
        }
    }

    /// DynamoDB's operations by wire name (one lookup per request), but the ones not answered
    /// yet (``OperationRows/notYetAnswered``).
    private static let dynamoDBOperations = Dictionary(
        uniqueKeysWithValues: DynamoOperation.allCases.filter { !OperationRows.notYetAnswered.contains($0) }.map { ($0.rawValue, $0) })
    /// DynamoDB Streams' operations by wire name.
    private static let streamsOperations = Dictionary(
        uniqueKeysWithValues: DynamoStreamsOperation.allCases.map { ($0.rawValue, $0) })

    package init(
        engine: DynamoEngine, threadPool: NIOThreadPool, logger: Logger,
        faults: FaultInjector = FaultInjector(), throttle: CapacityThrottle? = nil,
        errorWording: ErrorWording = .default
    ) {
        self.errorWording = errorWording
        self.throttle = throttle
        self.engine = engine
        self.storage =
            engine.storage == .inMemory ? .memory : engine.syncMode == .full ? .syncedFiles : .files
        self.threadPool = threadPool
        self.logger = logger
        self.faults = faults
    }

    /// The operation a target names, if this server answers it (every operation of the model but
    /// ``OperationRows/notYetAnswered``).
    static func operation(for target: DynamoTarget) -> Named? {
        switch target.service {
        case .dynamoDB: dynamoDBOperations[target.operation].map(Named.dynamoDB)
        case .dynamoDBStreams: streamsOperations[target.operation].map(Named.streams)
        }
    }

    package func supports(target: DynamoTarget) -> Bool {
        Self.operation(for: target) != nil
    }

    package func dispatch(_ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext) async -> DynamoResult {
        guard let operation = Self.operation(for: target) else {
            return .failure(DynamoError(.unknownOperation))
        }
        do {
            let request = try operation.withRow(
                Preparation(body: body, storage: storage) { try self.database(for: context) }
            ).get()
            return await perform(request, target: target, context: context)
        } catch {
            return failure(error, target: target, context: context)
        }
    }

    /// Runs a decoded and placed request where its placement says, off the calling loop: fault
    /// rules first, then the engine call on the writer thread or the pool, then the encoding.
    private func perform(_ request: PreparedRequest, target: DynamoTarget, context: DynamoRequestContext) async -> DynamoResult {
        do {
            var conflict: String?
            if faults.isArmed, let fault = faults.fault(operation: target.operation, tables: request.touches().tables) {
                if fault.latencyMilliseconds > 0 { try? await Task.sleep(for: .milliseconds(fault.latencyMilliseconds)) }
                if let error = fault.error { return .failure(error) }
                conflict = fault.conflictTable
            }
            let call = try self.call(request.run, context: context, conflict: conflict)
            switch request.placement {
            case .writer, .eventLoopIfWriterIdle:
                let database = try database(for: context)
                let answer = try await withCheckedThrowingContinuation { continuation in
                    database.enqueueWrite({ try call(database) }) { continuation.resume(with: $0) }
                }
                return .success(answer.encode())
            case .eventLoop, .pool:
                // Event-loop operations here arrived off a loop, or with faults armed.
                return .success(try await threadPool.runIfActive { try call(self.database(for: context)).encode() })
            }
        } catch {
            return failure(error, target: target, context: context)
        }
    }

    /// Runs the requests whose row places them on the event loop right here when called on an
    /// event loop (the server calls this on the connection's loop before it would start a task
    /// for ``dispatch(_:body:context:)``), or for an in-process caller
    /// (``DynamoRequestContext/inProcess``, whose task stands in for the loop); every other
    /// request is handed on to run from a task, with its input when it was decoded here.
    package func dispatchImmediately(
        _ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext
    ) -> ImmediateDispatch {
        guard let operation = Self.operation(for: target) else { return .answered(.failure(DynamoError(.unknownOperation))) }
        guard !faults.isArmed, context.inProcess || MultiThreadedEventLoopGroup.currentEventLoop != nil else {
            return .later { await self.dispatch(target, body: body, context: context) }
        }
        return operation.withRow(ImmediateRun(dispatcher: self, target: target, body: body, context: context))
    }

    /// Runs a row on the calling event loop when it belongs there, else hands it on. A row that
    /// never runs on the loop (the pool, or item writes that always go to the writer thread) is
    /// handed on before its body is decoded; one found to belong elsewhere once decoded (a
    /// placement decided per request, an item write that finds the writer busy) is handed on
    /// with its input.
    private struct ImmediateRun: OperationRowVisitor {
        let dispatcher: EngineDispatcher
        let target: DynamoTarget
        let body: DynamoRequestBody
        let context: DynamoRequestContext

        func visit<Input, Output>(_ row: OperationRow<Input, Output>) -> ImmediateDispatch {
            let (dispatcher, target, body, context) = (dispatcher, target, body, context)
            // Closures made only when handed on: the answered path allocates none.
            func undecoded() -> ImmediateDispatch { .later { await dispatcher.dispatch(target, body: body, context: context) } }
            func handedOn(_ input: Input, _ placement: DispatchPolicy.Placement) -> ImmediateDispatch {
                .later { await dispatcher.perform(PreparedRequest(row, input, placement: placement), target: target, context: context) }
            }
            switch (row.placement, dispatcher.storage.itemWritePlacement) {
            case (.fixed(.pool), _), (.fixed(.writer), _), (.itemWrite, .writer): return undecoded()
            default: break
            }
            do {
                let database = try dispatcher.database(for: context)
                let input = try Input.decodeRequest(body)
                let placement = row.placement.resolve(input, storage: dispatcher.storage) { database }
                let conflicts = try dispatcher.conflicts(context)
                let operationContext = OperationContext(database: database, now: dispatcher.engine.clock.now(), wording: dispatcher.errorWording)
                func run() throws -> Output {
                    for (table, count) in conflicts { database.injectTransactionConflicts(table: table, count: count) }
                    return try EngineDispatcher.run(row, input, context: operationContext, throttle: dispatcher.throttle)
                }
                switch placement {
                case .eventLoop:
                    return .answered(.success(row.encode(try run())))
                case .eventLoopIfWriterIdle:
                    // A busy writer: nothing ran (no conflict armed either); the write joins its queue.
                    return try database.writeNowIfIdle { try run() }.map { .answered(.success(row.encode($0))) }
                        ?? handedOn(input, placement)
                case .writer, .pool:
                    return handedOn(input, placement)
                }
            } catch {
                return .answered(dispatcher.failure(error, target: target, context: context))
            }
        }
    }

    /// One request decoded and placed, ready to run on any thread.
    struct PreparedRequest: Sendable {
        /// Where its engine call runs.
        let placement: DispatchPolicy.Placement
        /// What it names (faults, throttling, the request log).
        let touches: @Sendable () -> OperationTouches
        /// Runs the engine call (throttled when a throttle is given); returns the encoder of
        /// its output.
        let run: @Sendable (OperationContext, CapacityThrottle?) throws -> PendingAnswer

        /// `row`'s request of `input`, placed.
        init<Input, Output>(_ row: OperationRow<Input, Output>, _ input: Input, placement: DispatchPolicy.Placement) {
            self.placement = placement
            touches = { row.touches(input) }
            run = { context, throttle in
                let output = try EngineDispatcher.run(row, input, context: context, throttle: throttle)
                return PendingAnswer { row.encode(output) }
            }
        }
    }

    /// An engine call's output, encoded when asked (after the writer's lock was let go).
    struct PendingAnswer: Sendable {
        let encode: @Sendable () -> [UInt8]
    }

    /// Decodes and places a request for ``dispatch(_:body:context:)``.
    private struct Preparation: OperationRowVisitor {
        let body: DynamoRequestBody
        let storage: DispatchPolicy.Storage
        let database: () throws -> Database

        func visit<Input, Output>(_ row: OperationRow<Input, Output>) -> Result<PreparedRequest, any Error> {
            Result {
                let input = try Input.decodeRequest(body)
                return PreparedRequest(row, input, placement: try row.placement.resolve(input, storage: storage, database: database))
            }
        }
    }

    /// Runs one row's engine call, admitted by `throttle` as the row says.
    static func run<Input, Output>(
        _ row: OperationRow<Input, Output>, _ input: Input, context: OperationContext, throttle: CapacityThrottle?
    ) throws -> Output {
        guard let throttle else { return try row.run(input, context) }
        switch row.admission {
        case .unthrottled:
            return try row.run(input, context)
        case .whole(let capacity):
            return try throttle.run(row.touches(input), capacity: capacity, database: context.database, now: context.now) {
                try row.run(input, context)
            }
        case .itemByItem(let admit):
            let admission = BatchAdmission.Context(throttle: throttle, database: context.database, now: context.now)
            return try admit(input, admission) { admitted in try row.run(admitted, context) }
        }
    }

    /// The namespace's database of a request.
    private func database(for context: DynamoRequestContext) throws -> Database {
        try engine.database(accessKeyID: context.accessKeyID, region: context.region.isEmpty ? nil : context.region)
    }

    /// The engine call of one request, ready to run on any thread against its database: arms
    /// the transaction conflicts the request's header (or a fault) asks for, then runs.
    private func call<Answer>(
        _ run: @escaping @Sendable (OperationContext, CapacityThrottle?) throws -> Answer, context: DynamoRequestContext,
        conflict: String? = nil
    ) throws -> @Sendable (Database) throws -> Answer {
        let throttle = throttle
        let now = engine.clock.now()
        let conflicts = try self.conflicts(context, conflict: conflict)
        let wording = errorWording
        return { database in
            for (table, count) in conflicts { database.injectTransactionConflicts(table: table, count: count) }
            return try run(OperationContext(database: database, now: now, wording: wording), throttle)
        }
    }

    /// The transaction conflicts to arm before a request runs: its header's, and one on
    /// `conflict`'s table (a fault rule).
    private func conflicts(_ context: DynamoRequestContext, conflict: String? = nil) throws -> [(String, Int)] {
        let header = try context.headers[Self.conflictHeader].map(Self.parseConflicts) ?? []
        guard let conflict else { return header }
        return header + [(conflict, 1)]
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

extension EngineDispatcher {
    /// Every operation name this dispatcher answers (DynamoDB and DynamoDB Streams), for the
    /// per-operation series of `/metrics`.
    package static var operationNames: [String] {
        DynamoOperation.allCases.map(\.rawValue) + DynamoStreamsOperation.allCases.map(\.rawValue)
    }
}
