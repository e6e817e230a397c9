import DynamoAPI
import NIOCore
import NIOHTTP1
import Synchronization

/// One request from a caller in this process: what an HTTP request carries, with no socket and
/// no bytes to parse.
package struct InProcessRequest: Sendable {
    /// `POST`, `GET` …
    package var method: String
    /// The request target: the path and query (`/`, `/_localdynamo/clock`).
    package var uri: String
    /// Header fields in order (names compare case-insensitively).
    package var headers: [(name: String, value: String)]
    /// The body bytes as sent (empty for none).
    package var body: [UInt8]

    package init(method: String, uri: String, headers: [(name: String, value: String)], body: [UInt8]) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
    }
}

/// The answer to an ``InProcessRequest``: status, headers (names lowercased) and the body bytes
/// a socket would have carried.
package struct InProcessResponse: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: [UInt8]
}

/// A connection's request pipeline without the connection, for callers in this process (the
/// embedded engine's transport).
///
/// A request goes where a complete request from a socket goes: ``RequestRouter`` (console,
/// admin API, DynamoDB), DynamoDB's wire checks (``WireProtocol``, signature verification
/// under `--require-auth` included), the dispatcher's operation rows, and the answer's
/// headers as ``ResponseWriter`` writes them (request id, CRC, compression for a caller that
/// names an `Accept-Encoding`, metrics, request log). What a connection adds is not done
/// (framing, keep-alive, timeouts), and the caller's task stands in for the event loop (``DynamoRequestContext/inProcess``): an
/// operation the server answers on its loop (a point read, an item write in memory or to an
/// idle writer) runs on the caller's thread, anything else where the server runs it.
package final class InProcessFrontEnd: Sendable {
    private let settings: HTTPHandlerSettings
    private let router: RequestRouter
    private let writer: Mutex<ResponseWriter>
    private let requestIDs = Mutex(RequestIDGenerator())

    /// A front end answering with the same settings as the server's connections.
    init(settings: HTTPHandlerSettings) {
        self.settings = settings
        self.router = RequestRouter(admin: settings.admin, authenticator: settings.authenticator)
        self.writer = Mutex(ResponseWriter(clock: settings.clock, metrics: settings.metrics, logger: settings.logger))
    }

    /// Answers one request as the server answers it over a socket.
    package func respond(to request: InProcessRequest) async -> InProcessResponse {
        let started = NIODeadline.now()
        let requestID = requestIDs.withLock { $0.makeID() }
        let head = HTTPRequestHead(
            version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: request.uri,
            headers: HTTPHeaders(request.headers.map { ($0.name, $0.value) }))
        let summary = RequestHeaderSummary(head.headers)
        var answer = await answer(request, head, summary, requestID: requestID)
        // Only a caller that names an `Accept-Encoding` gets a compressed body, as over a socket.
        answer.reply = answer.reply.compressed(acceptEncoding: summary.acceptEncoding)
        return writer.withLock { $0.inProcessResponse(answer, requestID: requestID, started: started) }
    }

    private func answer(
        _ request: InProcessRequest, _ head: HTTPRequestHead, _ summary: RequestHeaderSummary, requestID: String
    ) async -> Answer {
        // What the connection refuses before a request is complete (HTTPConnectionStateMachine).
        if request.uri.utf8.count > HTTPReply.maximumRequestTargetBytes {
            return Answer(reply: .requestTargetTooLong, operation: "request target too long")
        }
        if request.body.count > settings.maximumRequestBodyBytes {
            return Answer(reply: .requestEntityTooLarge, operation: WireProtocol.operationLabel(summary.target))
        }
        let body = request.body.isEmpty ? nil : ByteBuffer(bytes: request.body)
        switch router.route(head, body: body) {
        case .answer(let answer):
            return answer
        case .admin(let adminRequest, let admin):
            // A caller in this process is on this machine.
            return await admin.answer(to: adminRequest, fromLoopback: true)
        case .dynamoDB:
            return await dynamoDB(head, summary, body: body, requestID: requestID)
        }
    }

    /// DynamoDB's checks, then the dispatcher: at once when it answers without waiting, else
    /// from this task.
    private func dynamoDB(_ head: HTTPRequestHead, _ summary: RequestHeaderSummary, body: ByteBuffer?, requestID: String) async -> Answer {
        let dispatcher = settings.dispatcher
        switch WireProtocol.evaluate(
            head: head, summary: summary, body: body, maximumBodyBytes: settings.maximumRequestBodyBytes,
            requestID: requestID, dispatcher: dispatcher, cors: settings.cors, authenticator: settings.authenticator)
        {
        case .respond(let reply, let operation):
            return Answer(reply: reply, operation: operation)
        case .dispatch(var dispatch):
            dispatch.context.inProcess = true
            let request = dispatch
            return await RequestRunner.run(request, logger: settings.logger, wording: dispatcher.errorWording) {
                switch try dispatcher.dispatchImmediately(request.target, body: request.body, context: request.context) {
                case .answered(let result): result
                case .later(let work): try await work()
                }
            }
        }
    }
}
