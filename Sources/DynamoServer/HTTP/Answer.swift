import NIOHTTP1

/// A reply and the operation it answers, as the request log and metrics name it (`GetItem`,
/// `console`, `admin /_localdynamo/clock` …).
struct Answer: Sendable {
    /// The response before framing.
    var reply: HTTPReply
    /// The operation label for the request log and metrics.
    var operation: String
}

extension AdminRouter {
    /// The answer to an admin request, with its operation label for the request log.
    func answer(to request: AdminRequest, fromLoopback: Bool) async -> Answer {
        let (status, body, contentType) = await respond(to: request, fromLoopback: fromLoopback)
        return Answer(
            reply: HTTPReply(status: HTTPResponseStatus(statusCode: status), contentType: contentType, body: body),
            operation: "admin \(request.path)")
    }
}
