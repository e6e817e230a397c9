import Logging
import NIOCore
import NIOHTTP1

/// One connection's request/response cycle, behind NIO's HTTP/1.1 request decoder: a thin
/// adapter that feeds channel events to an ``HTTPConnectionStateMachine`` and performs its actions.
///
/// The machine decides pipelining (answers leave in request order), body limits, `100 Continue`,
/// keep-alive and when to close; ``RequestRouter`` picks the service of a complete request;
/// ``RequestRunner`` runs it; ``ResponseWriter`` frames each answer into one buffer, sent with one
/// write. Together they do what NIO's response encoder, pipelining handler and protocol error
/// handler did. All state lives on the channel's event loop.
final class HTTPRequestHandler: ChannelDuplexHandler, RemovableChannelHandler, HTTPConnectionActionPerformer {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Decides what this connection does; every event goes through it.
    var machine: HTTPConnectionStateMachine
    private let router: RequestRouter
    private let runner: RequestRunner
    private var writer: ResponseWriter
    private let settings: HTTPHandlerSettings
    private var requestIDs = RequestIDGenerator()
    private var context: ChannelHandlerContext?
    /// Told where requests and answers end, for the request and idle timeouts.
    private let deadlines: ConnectionTimeoutHandler?

    /// A handler for one connection, served by `eventLoop`; `deadlines` is the connection's
    /// timeout handler, told where requests and answers end.
    init(settings: HTTPHandlerSettings, eventLoop: any EventLoop, deadlines: ConnectionTimeoutHandler? = nil) {
        self.settings = settings
        self.deadlines = deadlines
        // The allocator every channel of `HTTPServer` has (it sets no other).
        self.machine = HTTPConnectionStateMachine(maximumBodyBytes: settings.maximumRequestBodyBytes, allocator: ByteBufferAllocator())
        self.router = RequestRouter(admin: settings.admin, authenticator: settings.authenticator)
        self.runner = RequestRunner(settings: settings, eventLoop: eventLoop)
        self.writer = ResponseWriter(clock: settings.clock, metrics: settings.metrics, logger: settings.logger)
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
        perform(machine.receive(Self.unwrapInboundIn(data)))
    }

    /// Holds `read()` back while pipelined requests wait for an answer to be written.
    func read(context: ChannelHandlerContext) {
        perform(machine.readRequested())
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            perform(machine.inputClosed())
        } else if event is ChannelShouldQuiesceEvent {
            perform(machine.quiesce())
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            settings.logger.debug("malformed request", metadata: ["error_type": "\(type(of: error))"])
            perform(machine.parseFailed())
            return
        }
        // I/O errors need no answer. Either way this connection ends and no other is affected.
        settings.logger.debug("connection error", metadata: ["error_type": "\(type(of: error))"])
        context.close(promise: nil)
    }

    /// Whether a peer address is on this machine (127.0.0.0/8, ::1, or a Unix socket).
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let address else { return false }
        if case .unixDomainSocket = address { return true }
        guard let ip = address.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }

    /// The answer to the current request, from the task that prepared it (on the event loop).
    func answer(_ answer: Answer, requestID: String) {
        write(answer, requestID: requestID)
    }

    /// Does what the state machine says, on this handler's channel.
    func perform(_ action: consuming HTTPConnectionStateMachine.Action) {
        if case .none = action { return }
        guard let context else { return }
        switch consume action {
        case .none:
            break
        case .read:
            context.read()
        case .sendContinue:
            let frame = HTTPResponseFrame.continueResponse(version: machine.current.version, allocator: context.channel.allocator)
            context.writeAndFlush(Self.wrapOutboundOut(frame), promise: nil)
        case .dispatch(let head, let summary, let body):
            deadlines?.requestCompleted()
            dispatch(head, summary, body: body, context: context)
        case .refuse(let refusal):
            let answer =
                switch refusal {
                case .requestTargetTooLong: Answer(reply: .requestTargetTooLong, operation: "request target too long")
                case .bodyTooLarge(let target): Answer(reply: .requestEntityTooLarge, operation: WireProtocol.operationLabel(target))
                }
            write(answer, requestID: requestIDs.makeID())
        case .answerMalformed:
            // As NIO's `HTTPServerProtocolErrorHandler` answered: 400, then close.
            let loopBound = context.loopBound
            context.writeAndFlush(Self.wrapOutboundOut(HTTPResponseFrame.badRequest(allocator: context.channel.allocator)))
                .whenComplete { _ in loopBound.value.close(promise: nil) }
        case .close:
            context.close(promise: nil)
        }
    }

    /// Routes a complete request and writes its answer now, or lets a task write it later.
    private func dispatch(_ head: HTTPRequestHead, _ summary: RequestHeaderSummary, body: ByteBuffer?, context: ChannelHandlerContext) {
        let requestID = requestIDs.makeID()
        let acceptEncoding = summary.acceptEncoding
        switch router.route(head, body: body) {
        case .answer(let answer):
            write(answer, requestID: requestID)
        case .admin(let request, let admin):
            runner.runAdmin(
                request, router: admin, fromLoopback: Self.isLoopback(context.channel.remoteAddress),
                requestID: requestID, acceptEncoding: acceptEncoding, answeringTo: self)
        case .dynamoDB:
            if let answer = runner.runDynamoDB(
                head, summary, body: body, requestID: requestID, acceptEncoding: acceptEncoding, answeringTo: self)
            {
                write(answer, requestID: requestID)
            }
        }
    }

    /// Frames and writes one answer (one buffer, one write), then closes the connection if it
    /// must not be kept, or goes on with the requests that arrived meanwhile.
    private func write(_ answer: Answer, requestID: String) {
        guard let context else { return }
        let plan = machine.answerReady()
        let frame = writer.frame(answer, requestID: requestID, for: plan.request, allocator: context.channel.allocator)
        deadlines?.responseWritten()
        if plan.close {
            let loopBound = context.loopBound
            context.writeAndFlush(Self.wrapOutboundOut(frame)).whenComplete { _ in
                loopBound.value.close(promise: nil)
            }
        } else {
            context.writeAndFlush(Self.wrapOutboundOut(frame), promise: nil)
            deliverHeld()
        }
    }
}
