import DynamoAPI
import NIOHTTP1

/// A response before it is framed: status, body and the few headers that vary.
///
/// `HTTPRequestHandler` adds what every response carries (`x-amzn-RequestId`, `x-amz-crc32`,
/// `Content-Length`, `Connection` when needed).
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

    /// What an unexpected failure is answered with; nothing about the failure leaks.
    static func internalServerError(contentType: String, allowOrigin: String?) -> HTTPReply {
        error(DynamoError(.internalServerError, "Internal server error"), contentType: contentType, allowOrigin: allowOrigin)
    }
}
