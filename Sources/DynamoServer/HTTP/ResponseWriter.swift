import DynamoAPI
import DynamoEngine
import Logging
import NIOCore
import NIOHTTP1

/// Frames answers into the bytes that go on the wire, and accounts for them: metrics and the
/// debug request log. One per connection (it caches the `Date` header).
struct ResponseWriter {
    private let clock: ServerClock
    private let metrics: ServerMetrics?
    private let logger: Logger
    /// The last `Date` header and the second it stands for.
    private var cachedDate: (second: Int64, text: String) = (.min, "")

    /// - Parameters:
    ///   - clock: the server's clock, for the `Date` header.
    ///   - metrics: counts each answer for `/metrics`; `nil` counts nothing.
    ///   - logger: gets the debug request log.
    init(clock: ServerClock, metrics: ServerMetrics?, logger: Logger) {
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
    }

    /// Frames one answer into one buffer (status line, headers, body) and records it in the
    /// metrics and the request log.
    ///
    /// DynamoDB compresses answers of 4 KiB and more for clients that accept it (answers from a
    /// task arrive compressed already, off the event loop); the CRC is of the bytes sent.
    /// - Parameters:
    ///   - answer: the reply and its operation label.
    ///   - requestID: the `x-amzn-RequestId`.
    ///   - request: the version, method, `Accept-Encoding` and start of the request answered, and
    ///     whether the connection is kept (`Connection: close` when it is not).
    mutating func frame(
        _ answer: Answer,
        requestID: String,
        for request: HTTPConnectionStateMachine.RequestFacts,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let reply = answer.reply.compressed(acceptEncoding: request.acceptEncoding)
        let body = reply.body
        let version = request.version
        var frame = HTTPResponseFrame(
            version: version, status: reply.status, allocator: allocator,
            bodyCount: request.isHead ? 0 : body.count)
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
        if !request.keepAlive {
            frame.header("Connection", "close")
        } else if version.major == 1, version.minor == 0 {
            frame.header("Connection", "keep-alive")
        }
        frame.finish(body: body.isEmpty || request.isHead ? nil : body)
        record(reply, operation: answer.operation, requestID: requestID, started: request.started)
        return frame.buffer
    }

    /// One answer for an in-process caller (``InProcessFrontEnd``, which compressed it already
    /// if the request asked): the headers ``frame(_:requestID:for:allocator:)`` writes but the
    /// connection's own (`Connection`), names lowercased, recorded in the metrics and the
    /// request log the same way.
    mutating func inProcessResponse(_ answer: Answer, requestID: String, started: NIODeadline) -> InProcessResponse {
        let reply = answer.reply
        var headers: [String: String] = [
            "server": "Server",
            "date": dateHeader(),
            "x-amzn-requestid": requestID,
            "x-amz-crc32": String(CRC32.checksum(reply.body)),
            "content-length": String(reply.body.count),
        ]
        if let contentType = reply.contentType {
            headers["content-type"] = contentType
        }
        if let contentEncoding = reply.contentEncoding {
            headers["content-encoding"] = contentEncoding
        }
        if let origin = reply.allowOrigin {
            headers["access-control-allow-origin"] = origin
            headers["access-control-expose-headers"] = HTTPReply.exposedHeaders
        }
        for (name, value) in reply.extraHeaders {
            headers[name.lowercased()] = value
        }
        record(reply, operation: answer.operation, requestID: requestID, started: started)
        return InProcessResponse(status: Int(reply.status.code), headers: headers, body: reply.body)
    }

    private func record(_ reply: HTTPReply, operation: String, requestID: String, started: NIODeadline) {
        let status = reply.status.code
        let elapsed = (NIODeadline.now() - started).nanoseconds
        metrics?.record(
            operation: operation, nanoseconds: elapsed,
            errorType: status < 400 ? nil : ServerMetrics.errorType(body: reply.body, status: Int(status)))
        if logger.logLevel <= .debug {
            logger.debug(
                "request",
                metadata: [
                    "request_id": "\(requestID)",
                    "operation": "\(operation)",
                    "table": "\(reply.tables ?? "-")",
                    "status": "\(status)",
                    "duration_us": "\(elapsed / 1000)",
                ])
        }
    }

    /// The `Date` header for now, formatted once per second of the server clock (not once per
    /// answer: this runs for every response).
    private mutating func dateHeader() -> String {
        let now = clock.now()
        let second = Int64(now.rounded(.down))
        if second != cachedDate.second {
            cachedDate = (second, HTTPDate.format(epochSeconds: now))
        }
        return cachedDate.text
    }
}
