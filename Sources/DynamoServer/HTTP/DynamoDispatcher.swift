import DynamoAPI

/// Runs one DynamoDB operation for the HTTP front end.
///
/// `HTTPServer` owns the bytes on the wire: it checks method, content type, JSON syntax, target
/// and the shape of the `Authorization` header, in DynamoDB's order, and only then calls
/// ``dispatch(_:body:context:)``. The dispatcher owns everything after that: decoding the body
/// into an input shape, validation, running the operation, rendering the output.
///
/// For requests up to `HTTPServer.Configuration.inlineBodyBytes` (64 KiB by default) the server
/// calls ``dispatch(_:body:context:)`` from a task that starts synchronously on the connection's
/// event loop and keeps that loop as its preferred executor: a dispatcher that answers without
/// suspending answers within the same read, like a plain NIO handler, and after a suspension it
/// resumes on that loop. So a dispatcher must never block the calling thread: blocking work
/// (SQLite) belongs on its own threads, reached with `await`; long CPU work stalls every
/// connection of that loop. Larger requests are inflated and parsed on NIO's thread pool first,
/// then dispatched the same way (never through ``dispatchImmediately(_:body:context:)``).
package protocol DynamoDispatcher: Sendable {
    /// Whether this dispatcher implements `target`. An unsupported target is answered with
    /// `UnknownOperationException` before the `Authorization` header is looked at, as DynamoDB
    /// does. Called on an event loop: keep it cheap (a set lookup).
    func supports(target: DynamoTarget) -> Bool

    /// Runs one request whose target ``supports(target:)`` accepted.
    ///
    /// - Parameters:
    ///   - target: the operation, from `X-Amz-Target`.
    ///   - body: the request body: its JSON (any JSON value; DynamoDB's type checks are the
    ///     dispatcher's job, so a body such as `[]` arrives here), or the input the fast decoder
    ///     read from its bytes.
    ///   - context: request id, credentials scope and headers.
    /// - Returns: the rendered JSON body of a 200 answer, or the error to answer with.
    /// - Throws: a `DynamoError` is answered exactly like a returned `.failure`; any other error is
    ///   an unexpected failure, answered `500 InternalServerError` with no detail (the error's
    ///   type is logged) while the server goes on serving.
    func dispatch(_ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext) async throws -> DynamoResult

    /// Runs one request synchronously when the dispatcher can answer it without blocking and
    /// without suspending, or says what to run from a task instead.
    ///
    /// Called on the connection's event loop, in place of starting a task for
    /// ``dispatch(_:body:context:)`` (a task, its executor hop and its continuation cost more
    /// than a small operation itself), or from an in-process caller's task
    /// (``DynamoRequestContext/inProcess``), where a thread hop would cost more than the call. A dispatcher that has looked at the body before it finds
    /// the request must wait (decoded it, say) hands that work on in ``ImmediateDispatch/later(_:)``,
    /// so the body is not read twice. Errors are treated as in ``dispatch(_:body:context:)``.
    /// The default answers ``ImmediateDispatch/later(_:)`` with ``dispatch(_:body:context:)``.
    func dispatchImmediately(_ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext) throws
        -> ImmediateDispatch

    /// The wording errors are answered in (``DynamoAPI/ErrorWording``): the front end renders
    /// every `DynamoError` of this dispatcher with ``DynamoAPI/DynamoError/worded(_:)``. The
    /// default is ``DynamoAPI/ErrorWording/default``.
    var errorWording: ErrorWording { get }
}

extension DynamoDispatcher {
    package var errorWording: ErrorWording { .default }

    package func dispatchImmediately(
        _ target: DynamoTarget, body: DynamoRequestBody, context: DynamoRequestContext
    ) throws -> ImmediateDispatch {
        .later { try await dispatch(target, body: body, context: context) }
    }
}

/// What ``DynamoDispatcher/dispatchImmediately(_:body:context:)`` answers.
package enum ImmediateDispatch: Sendable {
    /// Answered on the calling event loop.
    case answered(DynamoResult)
    /// To be run from a task on the connection's loop; a `DynamoError` thrown is answered like
    /// a returned failure.
    case later(@Sendable () async throws -> DynamoResult)
}

/// The outcome of one dispatched request.
package enum DynamoResult: Sendable {
    /// A 200 answer with this JSON body, already rendered.
    case success([UInt8])
    /// An error answer: status `error.code.httpStatus`, body `error.body`.
    case failure(DynamoError)
}

/// The operation a request names in its `X-Amz-Target` header, e.g. `DynamoDB_20120810.GetItem`.
package struct DynamoTarget: Hashable, Sendable, CustomStringConvertible {
    /// The service prefix before the dot.
    package enum Service: String, Hashable, Sendable, CaseIterable {
        /// `DynamoDB_20120810`: tables and items.
        case dynamoDB = "DynamoDB_20120810"
        /// `DynamoDBStreams_20120810`: stream records.
        case dynamoDBStreams = "DynamoDBStreams_20120810"
    }

    package var service: Service
    /// The operation name after the dot, e.g. `GetItem`, exactly as sent (case-sensitive).
    package var operation: String

    package init(service: Service, operation: String) {
        self.service = service
        self.operation = operation
    }

    /// Parses an `X-Amz-Target` header value: exactly one dot, a known service prefix before it
    /// and a non-empty name after it. Returns `nil` otherwise.
    package init?(header: String) {
        let utf8 = header.utf8
        for service in Service.allCases {
            let prefix = service.rawValue.utf8
            guard utf8.count > prefix.count + 1, utf8.starts(with: prefix) else { continue }
            let dot = utf8.index(utf8.startIndex, offsetBy: prefix.count)
            guard utf8[dot] == UInt8(ascii: ".") else { continue }
            let name = utf8[utf8.index(after: dot)...]
            guard !name.contains(UInt8(ascii: ".")) else { return nil }
            self.init(service: service, operation: String(Substring(name)))
            return
        }
        return nil
    }

    /// The header form, `Service.Operation`.
    package var description: String { "\(service.rawValue).\(operation)" }
}

/// What the server knows about a request besides its body.
package struct DynamoRequestContext: Sendable {
    /// The `x-amzn-RequestId` the response carries (52 characters `[A-Z0-9]`).
    package var requestID: String
    /// The access key id from the `Authorization` header's `Credential=` scope.
    package var accessKeyID: String
    /// The region from the `Credential=` scope (e.g. `us-east-1`); empty when the scope is short.
    package var region: String
    /// Every request header as received (names compare case-insensitively).
    package var headers: DynamoHeaders
    /// The request came from a caller in this process (`DynamoEmbedded`'s transport), not from
    /// a socket: its task stands in for the connection's event loop, so the operations the
    /// server runs on an event loop run on the caller's thread (see
    /// ``DynamoDispatcher/dispatchImmediately(_:body:context:)``).
    package var inProcess = false

    package init(requestID: String, accessKeyID: String, region: String, headers: DynamoHeaders) {
        self.requestID = requestID
        self.accessKeyID = accessKeyID
        self.region = region
        self.headers = headers
    }
}
