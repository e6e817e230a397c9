import DynamoAPI
import NIOHTTP1

/// A response before it is framed: status, body and the few headers that vary.
///
/// `ResponseWriter` adds what every response carries (`Server`, `Date`, `x-amzn-RequestId`,
/// `x-amz-crc32`, `Content-Length`, `Connection` when needed, `Content-Encoding` when it
/// compresses the body).
struct HTTPReply: Sendable {
    var status: HTTPResponseStatus
    /// `nil` for the few answers DynamoDB (per dynalite) sends without one: the XML 404, the
    /// empty 413 and the CORS preflight.
    var contentType: String?
    var body: [UInt8]
    /// The `Access-Control-Allow-Origin` value (the request carried an allowed `Origin`).
    var allowOrigin: String? = nil
    /// Further headers (CORS preflight).
    var extraHeaders: [(String, String)] = []
    /// `Content-Encoding` once ``compressed(acceptEncoding:)`` compressed the body.
    var contentEncoding: String?
    /// The tables the request named, for the debug request log (set only when that log is on).
    var tables: String? = nil

    /// The reply with its body compressed as DynamoDB compresses answers: when the body is at
    /// least 4 KiB and the request's `Accept-Encoding` value allows a coding. The header is read
    /// only for such bodies: most answers are far smaller, and parsing it for every answer cost
    /// more than a GetItem's SQLite read. Compressing twice is a no-op.
    func compressed(acceptEncoding: String?) -> HTTPReply {
        guard let acceptEncoding, contentEncoding == nil, body.count >= ContentCoding.compressionThreshold,
            let format = ContentCoding.responseFormat(acceptEncoding: acceptEncoding)
        else { return self }
        var reply = self
        reply.body = Zlib.deflate(body, format: format)
        reply.contentEncoding = ContentCoding.headerValue(format)
        return reply
    }

    /// The response headers a browser may read (`Access-Control-Expose-Headers` on answers to a
    /// request with an `Origin`): DynamoDB's list, plus `x-amz-crc32` so browser SDKs can check
    /// the body.
    static let exposedHeaders = "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date,x-amz-crc32"

    /// An error answer: `code.httpStatus` with DynamoDB's error JSON.
    static func error(_ error: DynamoError, contentType: String, allowOrigin: String?) -> HTTPReply {
        HTTPReply(
            status: HTTPResponseStatus(statusCode: error.code.httpStatus),
            contentType: contentType,
            body: error.body,
            allowOrigin: allowOrigin
        )
    }

    /// The answer to an oversize body: 413 with an empty body (dynalite's observation of DynamoDB).
    static let requestEntityTooLarge = HTTPReply(status: .payloadTooLarge, contentType: nil, body: [])

    /// The longest request target (path and query) accepted. Longer ones are refused 400, as
    /// DynamoDB refuses a 17,000-byte path (ScyllaDB's measurement, 2025); header blocks over
    /// 80 KiB are refused 400 by the HTTP parser.
    static let maximumRequestTargetBytes = 16 * 1024

    /// The answer to an over-long request target: 400 with an empty body.
    static let requestTargetTooLong = HTTPReply(status: .badRequest, contentType: nil, body: [])

    /// What an unexpected failure is answered with; nothing about the failure leaks.
    static func internalServerError(contentType: String, allowOrigin: String?) -> HTTPReply {
        error(ServerMessages.internalServerError, contentType: contentType, allowOrigin: allowOrigin)
    }
}
