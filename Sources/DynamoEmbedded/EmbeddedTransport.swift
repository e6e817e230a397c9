import DynamoClient
import DynamoServer

/// A DynamoClient transport that hands each request to a LocalDynamo server in this process:
/// no socket, no HTTP to write or parse.
///
/// The request's body bytes, headers and `X-Amz-Target` go through the server's own pipeline
/// (the routing, DynamoDB's wire checks, SigV4 verification when the server requires it, the
/// operation rows that decode, validate and run the engine call), and the answer comes back
/// with the bytes, status and headers (`x-amzn-RequestId`, `x-amz-crc32`, `Date` …) a socket
/// would have carried: a client above it cannot tell the difference, errors included. The
/// admin API (`/_localdynamo/clock`, `/_localdynamo/consistency/settle` …) answers through it
/// too, as to a caller on loopback.
///
/// Every request goes to the one server, whatever the URL's host and port; only its path and
/// query are read. Operations the server answers on its event loop (point reads, item writes
/// in memory or to an idle writer) run on the calling task's thread; the rest run where the
/// server runs them. Timeouts do not apply (nothing waits on a network); an answer is
/// compressed only for a request that names an `Accept-Encoding`, as over a socket.
///
/// ```swift
/// let engine = try EmbeddedEngine()
/// let client = DynamoClient.local(transport: engine.transport)
/// ```
public struct EmbeddedTransport: HTTPTransport {
    private let frontEnd: InProcessFrontEnd

    /// A transport to `server`, which needs no socket: an ``EmbeddedEngine``'s server, or one
    /// also listening on a port (both kinds of caller then reach the same tables).
    ///
    /// - Parameter server: The server to answer. It must be started (``EmbeddedEngine`` starts
    ///   its own; a server started with `start()` serves both).
    public init(server: LocalDynamoServer) {
        frontEnd = server.inProcess
    }

    /// Answers one request in process.
    ///
    /// - Parameters:
    ///   - request: The request, as the client signed it.
    ///   - timeouts: Not used: no connection is made.
    /// - Returns: The server's answer, whatever its status.
    /// - Throws: `CancellationError` when the task was cancelled before the request ran.
    public func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let response = await frontEnd.respond(
            to: InProcessRequest(
                method: request.method, uri: Self.requestTarget(of: request.url), headers: request.headers,
                body: request.body))
        return HTTPResponse(status: response.status, lowercasedHeaders: response.headers, body: response.body)
    }

    /// The path and query of an absolute URL (`http://host:port/a?b` → `/a?b`), `/` when it has
    /// none; a URL without a scheme is taken as a request target already.
    static func requestTarget(of url: String) -> String {
        let utf8 = url.utf8
        guard let scheme = utf8.firstRange(of: "://".utf8) else {
            return url.isEmpty ? "/" : url
        }
        let authority = utf8[scheme.upperBound...]
        guard let slash = authority.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else {
            return "/"
        }
        let target = String(Substring(utf8[slash...]))
        return target.utf8.first == UInt8(ascii: "?") ? "/" + target : target
    }
}
