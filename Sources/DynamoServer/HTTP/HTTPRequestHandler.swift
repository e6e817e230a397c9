import DynamoAPI
import DynamoEngine
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// What every connection's handler shares.
struct HTTPHandlerSettings: Sendable {
    var dispatcher: any DynamoDispatcher
    var logger: Logger
    var maximumRequestBodyBytes: Int
    /// Requests whose body is at most this size are checked on the event loop (see
    /// `EventLoopTaskExecutor`); larger ones are inflated and parsed on `parsingPool`, so a
    /// 16 MiB `BatchWriteItem` never stalls the other connections of its loop.
    var inlineBodyBytes: Int
    /// Where bodies above `inlineBodyBytes` are inflated and parsed.
    var parsingPool: NIOThreadPool = .singleton
    /// Which origins get CORS headers.
    var cors: CORSPolicy = .anyOrigin
    /// Answers `/_localdynamo/…`; `nil` leaves those paths to the DynamoDB protocol checks.
    var admin: AdminRouter? = nil
    /// The server's clock, for the `Date` header.
    var clock = ServerClock()
    /// Counts requests and connections for `/metrics`; `nil` counts nothing.
    var metrics: ServerMetrics? = nil
    /// Verifies signatures (`--require-auth`); `nil` checks only the `Authorization` header's shape.
    var authenticator: RequestAuthenticator? = nil
}

/// One connection's request/response cycle, behind NIO's HTTP/1.1 request decoder.
///
/// It answers one request at a time: parts of pipelined requests that arrive while an answer is
/// being prepared are held (and reading pauses) until it is written, so responses leave in
/// request order. It aggregates the body (enforcing the size limit as it streams in), runs the
/// wire checks and starts a task for the dispatch; the task writes the answer back on the
/// channel's event loop. Each answer is framed into one buffer (``HTTPResponseFrame``) and sent
/// with one write: this handler also does what NIO's response encoder, pipelining handler and
/// protocol error handler did (400 and close on malformed HTTP, `Connection: close` and close
/// after the current answer on a graceful shutdown). All state lives on the loop.
final class HTTPRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What arrived while an answer was being prepared.
    private enum Held {
        case part(HTTPServerRequestPart)
        /// Malformed HTTP: answered 400 (and the connection closed) in its turn.
        case parseError
    }

    private enum State {
        /// Waiting for a request head.
        case idle
        /// Reading a request's body.
        case receiving(HTTPRequestHead, RequestHeaderSummary, body: ByteBuffer?)
        /// The body outgrew the limit; 413 was sent and the rest of the body is dropped.
        case discarding
        /// The request is complete and its answer is being prepared.
        case responding
    }

    /// What to do with the connection once an answer is written.
    private enum AfterWrite {
        /// Keep it if the request asked for keep-alive, close it otherwise.
        case byKeepAlive
        /// Close it.
        case close
        /// Leave it open even though the answer says `Connection: close` (closed later, once
        /// the request's body is drained).
        case leaveOpen
    }

    private let settings: HTTPHandlerSettings
    private let eventLoop: any EventLoop
    /// An `EventLoopTaskExecutor` for `eventLoop` (typed `AnyObject` because task executors
    /// need macOS 15 while the package supports macOS 14).
    private let taskExecutor: AnyObject?
    private var state = State.idle
    private var requestIDs = RequestIDGenerator()
    private var context: ChannelHandlerContext?
    /// When the current request's head arrived, for the request log.
    private var started = NIODeadline.now()
    private var keepAlive = true
    private var version = HTTPVersion.http1_1
    /// The current request is a `HEAD`: its answer has headers only.
    private var isHeadRequest = false
    /// The last `Date` header and the second it stands for.
    private var cachedDate: (second: Int64, text: String) = (.min, "")
    /// The client half-closed its side: close once the current answer is written.
    private var inputClosed = false
    /// The current request's `Accept-Encoding` value, read only for answers large enough to
    /// compress (see ``HTTPReply/compressed(acceptEncoding:)``).
    private var acceptEncoding: String?
    /// Pipelined request parts (and a parse error) received while an answer was being prepared.
    private var held = CircularBuffer<Held>()
    /// A `read()` held back while `held` is not empty.
    private var readPending = false
    /// `deliverHeld` is running (answers written from inside it must not start it again).
    private var delivering = false
    /// A graceful shutdown asked this connection to close after the current answer.
    private var quiescing = false
    /// Told where requests and answers end, for the request and idle timeouts.
    private let deadlines: ConnectionTimeoutHandler?

    init(settings: HTTPHandlerSettings, eventLoop: any EventLoop, deadlines: ConnectionTimeoutHandler? = nil) {
        self.settings = settings
        self.eventLoop = eventLoop
        self.deadlines = deadlines
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            self.taskExecutor = EventLoopTaskExecutor(eventLoop)
        } else {
            self.taskExecutor = nil
        }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        settings.metrics?.connectionOpened()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        settings.metrics?.connectionClosed()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = Self.unwrapInboundIn(data)
        if case .responding = state {
            held.append(.part(part))
        } else if !held.isEmpty {
            held.append(.part(part))
        } else {
            receive(part, context: context)
        }
    }

    /// Holds `read()` back while pipelined requests wait for an answer to be written.
    func read(context: ChannelHandlerContext) {
        if held.isEmpty {
            context.read()
        } else {
            readPending = true
        }
    }

    /// Handles the parts held while the last answer was prepared, until one needs an answer that
    /// is not ready yet; then resumes reading if nothing is left.
    private func deliverHeld(context: ChannelHandlerContext) {
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        while !held.isEmpty {
            if case .responding = state { return }
            switch held.removeFirst() {
            case .part(let part): receive(part, context: context)
            case .parseError: answerParseError(context: context)
            }
        }
        if inputClosed, self.context != nil {
            switch state {
            case .idle, .receiving, .discarding:
                // Nothing more can arrive: an incomplete request never completes.
                context.close(promise: nil)
                return
            case .responding:
                break
            }
        }
        if readPending {
            readPending = false
            context.read()
        }
    }

    private func receive(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            receiveHead(head, context: context)
        case .body(var part):
            switch state {
            case .receiving(let head, let summary, var body):
                state = .responding // drop the reference so `body` is uniquely owned
                let size = (body?.readableBytes ?? 0) + part.readableBytes
                if size > settings.maximumRequestBodyBytes {
                    rejectOversize(summary, expectsContinue: false)
                } else if body == nil {
                    if let length = summary.contentLength, length > part.readableBytes {
                        // Room for the whole declared body at once, not a series of regrowths.
                        var whole = context.channel.allocator.buffer(capacity: length)
                        whole.writeBuffer(&part)
                        part = whole
                    }
                    state = .receiving(head, summary, body: part)
                } else {
                    body!.writeBuffer(&part)
                    state = .receiving(head, summary, body: body)
                }
            case .discarding, .idle, .responding:
                break
            }
        case .end:
            deadlines?.requestCompleted()
            switch state {
            case .receiving(let head, let summary, let body):
                state = .responding
                process(head, summary, body: body)
            case .discarding:
                // 413 was sent with `Connection: close`.
                state = .idle
                context.close(promise: nil)
            case .idle, .responding:
                break
            }
        }
    }

    private func receiveHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        started = .now()
        keepAlive = head.isKeepAlive
        isHeadRequest = head.method == .HEAD
        version = head.version
        let summary = RequestHeaderSummary(head.headers)
        acceptEncoding = summary.acceptEncoding
        if head.uri.utf8.count > HTTPReply.maximumRequestTargetBytes {
            // DynamoDB answers a request target this long 400 without reading it further; the
            // body is not read either, so the connection cannot be reused.
            keepAlive = false
            state = .responding
            write(.requestTargetTooLong, requestID: requestIDs.makeID(), operation: "request target too long", then: .close)
            return
        }
        if let length = summary.contentLength, length > settings.maximumRequestBodyBytes {
            rejectOversize(summary, expectsContinue: summary.expectsContinue)
            return
        }
        if summary.expectsContinue {
            context.writeAndFlush(
                Self.wrapOutboundOut(
                    HTTPResponseFrame.continueResponse(
                        version: head.version,
                        allocator: context.channel.allocator)),
                promise: nil
            )
        }
        state = .receiving(head, summary, body: nil)
    }

    /// Answers 413 and closes the connection: once the client's body is drained (so the answer is
    /// not lost to a reset), or at once when the client waits for `100 Continue` and so will not
    /// send the body.
    private func rejectOversize(_ summary: RequestHeaderSummary, expectsContinue: Bool) {
        keepAlive = false
        state = expectsContinue ? .responding : .discarding
        write(
            .requestEntityTooLarge, requestID: requestIDs.makeID(), operation: WireProtocol.operationLabel(summary.target),
            then: expectsContinue ? .close : .leaveOpen)
    }

    private func process(_ head: HTTPRequestHead, _ summary: RequestHeaderSummary, body: ByteBuffer?) {
        let requestID = requestIDs.makeID()
        let settings = self.settings
        if let page = ConsoleAssets.reply(method: head.method, uri: head.uri) {
            write(page, requestID: requestID, operation: "console", then: .byKeepAlive)
            return
        }
        if let admin = settings.admin, AdminRouter.handles(uri: head.uri) {
            if let authenticator = settings.authenticator, case .failure(let error) = authenticator.authenticate(head, body: body) {
                write(
                    HTTPReply(
                        status: .forbidden, contentType: WireProtocol.plainJSON,
                        body: AdminRouter.errorBody("\(error.code.rawValue): \(error.message ?? "")")),
                    requestID: requestID, operation: "admin (refused)", then: .byKeepAlive)
                return
            }
            processAdmin(head, body: body, router: admin, requestID: requestID)
            return
        }
        // A compressed body may inflate to the full limit: never on the event loop.
        let inline = (body?.readableBytes ?? 0) <= settings.inlineBodyBytes && summary.contentEncoding == nil
        let limit = settings.maximumRequestBodyBytes
        if inline {
            switch WireProtocol.evaluate(
                head: head, summary: summary, body: body, maximumBodyBytes: limit,
                requestID: requestID, dispatcher: settings.dispatcher, cors: settings.cors,
                authenticator: settings.authenticator)
            {
            case .respond(let reply, let operation):
                write(reply, requestID: requestID, operation: operation, then: .byKeepAlive)
            case .dispatch(let request):
                switch Self.runImmediately(request, dispatcher: settings.dispatcher, logger: settings.logger) {
                case .answered(let answer):
                    write(answer.0, requestID: requestID, operation: answer.1, then: .byKeepAlive)
                case .later(let work):
                    startTask(requestID: requestID) {
                        await Self.run(request, logger: settings.logger, work)
                    }
                }
            }
        } else {
            // Inflated and parsed on NIO's thread pool, dispatched from this loop: neither step
            // waits for a thread of the global concurrency pool, which a process embedding the
            // server (an app, an in-process test run) may keep busy for seconds.
            let pool = settings.parsingPool
            startTask(requestID: requestID) {
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
                    return (.internalServerError(contentType: WireProtocol.plainJSON, allowOrigin: nil), "unknown")
                }
                switch decision {
                case .respond(let reply, let operation):
                    return (reply, operation)
                case .dispatch(let request):
                    return await Self.run(request, logger: settings.logger) {
                        try await settings.dispatcher.dispatch(request.target, body: request.body, context: request.context)
                    }
                }
            }
        }
    }

    /// Answers an admin request from a task on this connection's event loop: its handlers hand
    /// their blocking work (snapshots, sweeps, metrics) to the thread pool and await it, so an
    /// admin answer never waits for a thread of the global concurrency pool, which a busy
    /// process (or an in-process test run) can keep occupied for seconds.
    private func processAdmin(_ head: HTTPRequestHead, body: ByteBuffer?, router: AdminRouter, requestID: String) {
        let request = AdminRequest(
            method: head.method.rawValue, uri: head.uri,
            body: body.map { Array($0.readableBytesView) } ?? [])
        let fromLoopback = Self.isLoopback(context?.channel.remoteAddress)
        startTask(requestID: requestID) {
            let (status, body, contentType) = await router.respond(to: request, fromLoopback: fromLoopback)
            return (
                HTTPReply(status: HTTPResponseStatus(statusCode: status), contentType: contentType, body: body),
                "admin \(request.path)"
            )
        }
    }

    /// Whether a peer address is on this machine (127.0.0.0/8, ::1, or a Unix socket).
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let address else { return false }
        if case .unixDomainSocket = address { return true }
        guard let ip = address.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }

    /// Runs `work` in a task that prefers this channel's event loop as its executor, and writes
    /// its answer back on that loop. (Where task executors are not available, before macOS 15
    /// and its peers, the task runs on the global pool.)
    private func startTask(
        requestID: String,
        _ work: @escaping @Sendable () async -> (HTTPReply, String)
    ) {
        let eventLoop = self.eventLoop
        let handler = NIOLoopBound(self, eventLoop: eventLoop)
        let acceptEncoding = self.acceptEncoding
        let work: @Sendable () async -> (HTTPReply, String) = {
            let (reply, operation) = await work()
            return (reply.compressed(acceptEncoding: acceptEncoding), operation)
        }
        let finish: @Sendable ((HTTPReply, String)) -> Void = { answer in
            if eventLoop.inEventLoop {
                handler.value.write(answer.0, requestID: requestID, operation: answer.1, then: .byKeepAlive)
            } else {
                eventLoop.execute {
                    handler.value.write(answer.0, requestID: requestID, operation: answer.1, then: .byKeepAlive)
                }
            }
        }
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *), let taskExecutor else {
            Task { finish(await work()) }
            return
        }
        let executor = unsafeDowncast(taskExecutor, to: EventLoopTaskExecutor.self)
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            // Runs on this thread, now, up to the dispatcher's first real suspension: a dispatcher
            // that answers without suspending answers within this `channelRead`, as a plain NIO
            // handler would (no enqueue, and the pipeline handler never has to pause reading).
            Task.immediate(executorPreference: executor) { finish(await work()) }
        } else {
            Task(executorPreference: executor) { finish(await work()) }
        }
    }

    /// Calls the dispatcher and turns its result into a reply: a thrown `DynamoError` is answered
    /// like a returned one, anything else thrown is an unexpected failure answered 500 (logged by
    /// type only: error descriptions may hold item data).
    private static func run(
        _ request: WireProtocol.Dispatch,
        logger: Logger,
        _ work: @Sendable () async throws -> DynamoResult
    ) async -> (HTTPReply, String) {
        do {
            let result = try await work()
            return reply(result, to: request, logger: logger)
        } catch {
            return reply(throwing: error, to: request, logger: logger)
        }
    }

    /// What to answer now when the dispatcher answers synchronously, or the work to run from a
    /// task when it wants the asynchronous path.
    private enum Immediate {
        case answered((HTTPReply, String))
        case later(@Sendable () async throws -> DynamoResult)
    }

    /// ``run(_:logger:_:)`` without a task, when the dispatcher answers synchronously.
    private static func runImmediately(
        _ request: WireProtocol.Dispatch,
        dispatcher: any DynamoDispatcher,
        logger: Logger
    ) -> Immediate {
        do {
            switch try dispatcher.dispatchImmediately(request.target, body: request.body, context: request.context) {
            case .answered(let result): return .answered(reply(result, to: request, logger: logger))
            case .later(let work): return .later(work)
            }
        } catch {
            return .answered(reply(throwing: error, to: request, logger: logger))
        }
    }

    private static func reply(_ result: DynamoResult, to request: WireProtocol.Dispatch, logger: Logger) -> (HTTPReply, String) {
        var reply =
            switch result {
            case .success(let body):
                HTTPReply(status: .ok, contentType: request.contentType, body: body, allowOrigin: request.allowOrigin)
            case .failure(let error):
                HTTPReply.error(error, contentType: request.contentType, allowOrigin: request.allowOrigin)
            }
        // The request log names the tables (never item values); looked up only when it is written.
        if logger.logLevel <= .debug { reply.tables = FaultInjector.tables(in: request.body.json).joined(separator: ",") }
        return (reply, request.target.operation)
    }

    private static func reply(throwing error: any Error, to request: WireProtocol.Dispatch, logger: Logger) -> (HTTPReply, String) {
        let operation = request.target.operation
        if let error = error as? DynamoError {
            return (.error(error, contentType: request.contentType, allowOrigin: request.allowOrigin), operation)
        }
        logger.error(
            "dispatcher failed",
            metadata: [
                "request_id": "\(request.context.requestID)",
                "operation": "\(operation)",
                "error_type": "\(type(of: error))",
            ])
        return (.internalServerError(contentType: request.contentType, allowOrigin: request.allowOrigin), operation)
    }

    /// The `Date` header for now, formatted once per second of the server clock (not once per
    /// answer: this runs for every response).
    private func dateHeader() -> String {
        let now = settings.clock.now()
        let second = Int64(now.rounded(.down))
        if second != cachedDate.second {
            cachedDate = (second, HTTPDate.format(epochSeconds: now))
        }
        return cachedDate.text
    }

    /// Frames and writes one answer (one buffer, one write), then closes the connection if it
    /// must not be kept, or goes on with the requests that arrived meanwhile.
    private func write(_ reply: HTTPReply, requestID: String, operation: String, then afterWrite: AfterWrite) {
        guard let context else { return }
        // DynamoDB compresses answers of 4 KiB and more for clients that accept it (answers
        // from a task arrive compressed already, off the event loop); the CRC is of the bytes sent.
        let reply = reply.compressed(acceptEncoding: acceptEncoding)
        let body = reply.body
        if quiescing { keepAlive = false }
        let close: Bool
        switch afterWrite {
        case .byKeepAlive: close = !keepAlive || (inputClosed && held.isEmpty)
        case .close: close = true
        case .leaveOpen: close = false
        }

        var frame = HTTPResponseFrame(
            version: version, status: reply.status, allocator: context.channel.allocator,
            bodyCount: isHeadRequest ? 0 : body.count)
        frame.header("Server", "Server")
        frame.header("Date", dateHeader())
        frame.header("x-amzn-RequestId", requestID)
        frame.header("x-amz-crc32", CRC32.checksum(body))
        if let contentType = reply.contentType {
            frame.header("Content-Type", contentType)
        }
        if let contentEncoding = reply.contentEncoding {
            frame.header("Content-Encoding", contentEncoding)
        }
        frame.header("Content-Length", body.count)
        if let origin = reply.allowOrigin {
            frame.header("Access-Control-Allow-Origin", origin)
            frame.header("Access-Control-Expose-Headers", HTTPReply.exposedHeaders)
        }
        for (name, value) in reply.extraHeaders {
            frame.header(name, value)
        }
        if !keepAlive {
            frame.header("Connection", "close")
        } else if version.major == 1, version.minor == 0 {
            frame.header("Connection", "keep-alive")
        }
        frame.finish(body: body.isEmpty || isHeadRequest ? nil : body)

        let status = reply.status.code
        let elapsed = (NIODeadline.now() - started).nanoseconds
        settings.metrics?.record(
            operation: operation, nanoseconds: elapsed,
            errorType: status < 400 ? nil : ServerMetrics.errorType(body: reply.body, status: Int(status)))
        if settings.logger.logLevel <= .debug {
            settings.logger.debug(
                "request",
                metadata: [
                    "request_id": "\(requestID)",
                    "operation": "\(operation)",
                    "table": "\(reply.tables ?? "-")",
                    "status": "\(status)",
                    "duration_us": "\(elapsed / 1000)",
                ])
        }

        if case .responding = state { state = .idle }
        deadlines?.responseWritten()
        if close {
            let loopBound = context.loopBound
            held.removeAll()
            context.writeAndFlush(Self.wrapOutboundOut(frame.buffer)).whenComplete { _ in
                loopBound.value.close(promise: nil)
            }
        } else {
            context.writeAndFlush(Self.wrapOutboundOut(frame.buffer), promise: nil)
            deliverHeld(context: context)
        }
    }

    /// Malformed HTTP (the decoder refuses the rest of the connection's bytes): 400, as NIO's
    /// `HTTPServerProtocolErrorHandler` answered, then close.
    private func answerParseError(context: ChannelHandlerContext) {
        held.removeAll()
        state = .responding
        let loopBound = context.loopBound
        context.writeAndFlush(Self.wrapOutboundOut(HTTPResponseFrame.badRequest(allocator: context.channel.allocator)))
            .whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            if case .idle = state, held.isEmpty { context.close(promise: nil) }
            return
        }
        if event is ChannelShouldQuiesceEvent {
            // A graceful shutdown: an idle connection closes now, a busy one after its answer
            // (which says `Connection: close`); held pipelined requests are not answered.
            quiescing = true
            held.removeAll()
            if case .idle = state { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            // Answered in its turn: after the answers to the requests before it.
            switch state {
            case .responding: held.append(.parseError)
            case .idle, .receiving, .discarding:
                if held.isEmpty { answerParseError(context: context) } else { held.append(.parseError) }
            }
            settings.logger.debug("malformed request", metadata: ["error_type": "\(type(of: error))"])
            return
        }
        // I/O errors need no answer. Either way this connection ends and no other is affected.
        settings.logger.debug("connection error", metadata: ["error_type": "\(type(of: error))"])
        context.close(promise: nil)
    }
}
