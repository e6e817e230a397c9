import DynamoAPI
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// Runs one connection's routed requests: DynamoDB's wire checks and the dispatcher, inline on
/// the event loop or via the parsing pool, and admin requests, in tasks that prefer the
/// connection's event loop.
///
/// An answer ready at once is returned; otherwise a task hands it to the connection's handler,
/// on its event loop, when ready.
struct RequestRunner {
    private let settings: HTTPHandlerSettings
    /// The connection's event loop as a task executor.
    private let executor: EventLoopTaskExecutor

    /// A runner for the connection served by `eventLoop`.
    init(settings: HTTPHandlerSettings, eventLoop: any EventLoop) {
        self.settings = settings
        self.executor = EventLoopTaskExecutor(eventLoop)
    }

    /// Runs a DynamoDB protocol request.
    ///
    /// Bodies up to `inlineBodyBytes`, uncompressed, are checked on the event loop and dispatched
    /// at once when the dispatcher answers synchronously. Others are inflated and parsed on the
    /// parsing pool and dispatched from the loop: neither step waits for a thread of the global
    /// concurrency pool, which a process embedding the server (an app, an in-process test run)
    /// may keep busy for seconds.
    /// - Returns: the answer when it is ready now; `nil` when `handler` will be given it.
    func runDynamoDB(
        _ head: HTTPRequestHead,
        _ summary: RequestHeaderSummary,
        body: ByteBuffer?,
        requestID: String,
        acceptEncoding: String?,
        answeringTo handler: HTTPRequestHandler
    ) -> Answer? {
        let settings = self.settings
        let limit = settings.maximumRequestBodyBytes
        // A compressed body may inflate to the full limit: never on the event loop.
        guard (body?.readableBytes ?? 0) <= settings.inlineBodyBytes, summary.contentEncoding == nil else {
            let pool = settings.parsingPool
            startTask(requestID: requestID, acceptEncoding: acceptEncoding, answeringTo: handler) {
                let decision: WireProtocol.Decision
                do {
                    decision = try await pool.runIfActive {
                        WireProtocol.evaluate(
                            head: head, summary: summary, body: body, maximumBodyBytes: limit,
                            requestID: requestID, dispatcher: settings.dispatcher, cors: settings.cors,
                            authenticator: settings.authenticator)
                    }
                } catch {
                    // The pool was shut down under a running server.
                    return Answer(reply: .internalServerError(contentType: WireProtocol.plainJSON, allowOrigin: nil), operation: "unknown")
                }
                switch decision {
                case .respond(let reply, let operation):
                    return Answer(reply: reply, operation: operation)
                case .dispatch(let request):
                    return await Self.run(request, logger: settings.logger, wording: settings.dispatcher.errorWording) {
                        try await settings.dispatcher.dispatch(request.target, body: request.body, context: request.context)
                    }
                }
            }
            return nil
        }
        switch WireProtocol.evaluate(
            head: head, summary: summary, body: body, maximumBodyBytes: limit,
            requestID: requestID, dispatcher: settings.dispatcher, cors: settings.cors,
            authenticator: settings.authenticator)
        {
        case .respond(let reply, let operation):
            return Answer(reply: reply, operation: operation)
        case .dispatch(let request):
            let work: @Sendable () async throws -> DynamoResult
            do {
                switch try settings.dispatcher.dispatchImmediately(request.target, body: request.body, context: request.context) {
                case .answered(let result):
                    return Self.answer(result, to: request, logger: settings.logger, wording: settings.dispatcher.errorWording)
                case .later(let later): work = later
                }
            } catch {
                return Self.answer(throwing: error, to: request, logger: settings.logger, wording: settings.dispatcher.errorWording)
            }
            startTask(requestID: requestID, acceptEncoding: acceptEncoding, answeringTo: handler) {
                await Self.run(request, logger: settings.logger, wording: settings.dispatcher.errorWording, work)
            }
            return nil
        }
    }

    /// Answers an admin request from a task on the connection's event loop: its handlers hand
    /// their blocking work (snapshots, sweeps, metrics) to the thread pool and await it, so an
    /// admin answer never waits for a thread of the global concurrency pool, which a busy
    /// process (or an in-process test run) can keep occupied for seconds.
    func runAdmin(
        _ request: AdminRequest,
        router: AdminRouter,
        fromLoopback: Bool,
        requestID: String,
        acceptEncoding: String?,
        answeringTo handler: HTTPRequestHandler
    ) {
        startTask(requestID: requestID, acceptEncoding: acceptEncoding, answeringTo: handler) {
            await router.answer(to: request, fromLoopback: fromLoopback)
        }
    }

    /// Runs `work` in a task that prefers the connection's event loop as its executor, compresses
    /// its answer (off the loop when the task left it) and gives it to `handler` on that loop.
    private func startTask(
        requestID: String,
        acceptEncoding: String?,
        answeringTo handler: HTTPRequestHandler,
        _ work: @escaping @Sendable () async -> Answer
    ) {
        let eventLoop = executor.eventLoop
        let handler = NIOLoopBound(handler, eventLoop: eventLoop)
        let work: @Sendable () async -> Answer = {
            var answer = await work()
            answer.reply = answer.reply.compressed(acceptEncoding: acceptEncoding)
            return answer
        }
        let finish: @Sendable (Answer) -> Void = { answer in
            if eventLoop.inEventLoop {
                handler.value.answer(answer, requestID: requestID)
            } else {
                eventLoop.execute { handler.value.answer(answer, requestID: requestID) }
            }
        }
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            // Runs on this thread, now, up to the dispatcher's first real suspension: a dispatcher
            // that answers without suspending answers within this `channelRead`, as a plain NIO
            // handler would (no enqueue, and the handler never has to pause reading).
            Task.immediate(executorPreference: executor) { finish(await work()) }
        } else {
            Task(executorPreference: executor) { finish(await work()) }
        }
    }

    /// Runs the dispatcher's work and turns its result into an answer: a thrown `DynamoError` is
    /// answered like a returned one, anything else thrown is an unexpected failure answered 500
    /// (logged by type only: error descriptions may hold item data).
    static func run(
        _ request: WireProtocol.Dispatch,
        logger: Logger,
        wording: ErrorWording,
        _ work: @Sendable () async throws -> DynamoResult
    ) async -> Answer {
        do {
            return answer(try await work(), to: request, logger: logger, wording: wording)
        } catch {
            return answer(throwing: error, to: request, logger: logger, wording: wording)
        }
    }

    private static func answer(
        _ result: DynamoResult, to request: WireProtocol.Dispatch, logger: Logger, wording: ErrorWording
    ) -> Answer {
        var reply =
            switch result {
            case .success(let body):
                HTTPReply(status: .ok, contentType: request.contentType, body: body, allowOrigin: request.allowOrigin)
            case .failure(let error):
                HTTPReply.error(error.worded(wording), contentType: request.contentType, allowOrigin: request.allowOrigin)
            }
        // The request log names the tables (never item values); looked up only when it is written.
        if logger.logLevel <= .debug { reply.tables = request.body.tableNames.joined(separator: ",") }
        return Answer(reply: reply, operation: request.target.operation)
    }

    private static func answer(
        throwing error: any Error, to request: WireProtocol.Dispatch, logger: Logger, wording: ErrorWording
    ) -> Answer {
        let operation = request.target.operation
        if let error = error as? DynamoError {
            let reply = HTTPReply.error(error.worded(wording), contentType: request.contentType, allowOrigin: request.allowOrigin)
            return Answer(reply: reply, operation: operation)
        }
        logger.error(
            "dispatcher failed",
            metadata: [
                "request_id": "\(request.context.requestID)",
                "operation": "\(operation)",
                "error_type": "\(type(of: error))",
            ])
        return Answer(reply: .internalServerError(contentType: request.contentType, allowOrigin: request.allowOrigin), operation: operation)
    }
}
