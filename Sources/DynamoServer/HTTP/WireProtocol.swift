import AWSSigV4
import DynamoAPI
import NIOCore
import NIOHTTP1

/// DynamoDB's request checks, in the order DynamoDB makes them.
///
/// The order and wording follow dynalite (`architect/dynalite`, `index.js`), which recorded
/// them against the real service:
///
/// 1. Body over the size limit → 413, empty body (checked while the body streams in, by
///    `HTTPConnectionStateMachine`, before anything here). dynalite keeps the connection; we answer
///    `Connection: close` and close once the rest of the body is drained.
/// 1b. `Content-Encoding: gzip` / `deflate` → the body is inflated (see `ContentCoding`); over
///    the size limit once inflated → 413; corrupt, truncated or another coding → 500, as
///    DynamoDB answers.
/// 2. `Origin` present → every answer carries `Access-Control-Allow-Origin: *` (or, under a
///    ``CORSPolicy`` allow-list, the origin itself when listed and nothing otherwise); an
///    `OPTIONS` with an allowed `Origin` is a CORS preflight answered 200 here.
/// 3. `GET /` → DynamoDB's health answer (see ``healthBody(region:)``); LocalDynamo's own JSON
///    health is `GET /_localdynamo/health`.
/// 4. Not `POST`, or a non-empty body with a content type other than
///    `application/x-amz-json-1.0` / `application/json` → 404 `<UnknownOperationException/>`.
///    (dynalite compares exactly; we ignore case and parameters such as `; charset=utf-8`.)
///    The request path is never looked at, as in DynamoDB.
/// 5. Non-empty body that is not JSON → 400 `SerializationException`, no message.
/// 6. `X-Amz-Target` missing, malformed or not supported → 400 `UnknownOperationException`,
///    no message. Services: `DynamoDB_20120810`, `DynamoDBStreams_20120810` (not the 2011 API
///    dynalite also accepts); operations: whatever the dispatcher `supports`.
/// 7. `Authorization` missing or not starting with `AWS4-` → 400
///    `MissingAuthenticationTokenException` "Request is missing Authentication Token".
/// 8. `Credential`, `Signature`, `SignedHeaders` or both `X-Amz-Date` and `Date` missing → 400
///    `IncompleteSignatureException` (see `AuthorizationHeader`). Signatures are verified only
///    under `--require-auth` (`RequestAuthenticator`, which replaces steps 7–8 with SigV4's
///    checks, presigned query strings included).
/// 9. Empty body or a body of JSON `null` → 400 `SerializationException`, no message.
/// 10. Dispatch.
///
/// Answers use `application/x-amz-json-1.0` when the request did, `application/json` otherwise.
enum WireProtocol {
    static let amzJSON = "application/x-amz-json-1.0"
    static let plainJSON = "application/json"

    /// What to do with a complete request.
    enum Decision: Sendable {
        /// Answer now.
        case respond(HTTPReply, operation: String)
        /// Hand the request to the dispatcher.
        case dispatch(Dispatch)
    }

    /// A request that passed every wire check.
    struct Dispatch: Sendable {
        var target: DynamoTarget
        var body: DynamoRequestBody
        var context: DynamoRequestContext
        /// The content type the answer uses.
        var contentType: String
        /// The `Access-Control-Allow-Origin` value, if any.
        var allowOrigin: String?
    }

    /// The `GET /` answer, as DynamoDB gives it: `200` with the plain text
    /// `healthy: dynamodb.<region>.amazonaws.com ` (the trailing space is the service's, as
    /// dynalite's tests recorded against it assert) and no content type. The region is the
    /// request's credential scope's when it carries an `Authorization` header, else `us-east-1`
    /// (the default namespace's).
    static func healthBody(region: String) -> [UInt8] {
        Array("healthy: dynamodb.\(region.isEmpty ? "us-east-1" : region).amazonaws.com ".utf8)
    }

    /// The 404 body DynamoDB sends for a request that is not a DynamoDB call.
    static let unknownOperationXML = Array("<UnknownOperationException/>\n".utf8)

    /// Runs checks 2–9 on a complete request.
    static func evaluate(
        head: HTTPRequestHead,
        summary: RequestHeaderSummary,
        body compressedBody: ByteBuffer?,
        maximumBodyBytes: Int,
        requestID: String,
        dispatcher: any DynamoDispatcher,
        cors: CORSPolicy = .anyOrigin,
        authenticator: RequestAuthenticator? = nil
    ) -> Decision {
        let headers = head.headers
        let body: ByteBuffer?
        switch decodeBody(compressedBody, summary: summary, maximumBodyBytes: maximumBodyBytes) {
        case .success(let decoded): body = decoded
        case .failure(let refusal): return refusal.decision
        }
        let bodyLength = body?.readableBytes ?? 0

        // 2. CORS.
        let allowOrigin = cors.allowedOrigin(for: summary.origin)
        if allowOrigin != nil, head.method == .OPTIONS {
            var extra: [(String, String)] = []
            if let requested = headers.first(name: "access-control-request-headers") {
                extra.append(("Access-Control-Allow-Headers", requested))
            }
            if let requested = headers.first(name: "access-control-request-method") {
                extra.append(("Access-Control-Allow-Methods", requested))
            }
            extra.append(("Access-Control-Max-Age", "172800"))
            return .respond(
                HTTPReply(status: .ok, contentType: nil, body: [], allowOrigin: allowOrigin, extraHeaders: extra),
                operation: "CORS preflight"
            )
        }

        // 3. Health check.
        if head.method == .GET, isRootPath(head.uri) {
            let region = headers.first(name: "authorization").flatMap(AuthorizationHeader.init)?.region ?? ""
            return .respond(
                HTTPReply(status: .ok, contentType: nil, body: healthBody(region: region), allowOrigin: allowOrigin),
                operation: "health"
            )
        }

        // 4. Method and content type.
        let requestContentType = summary.contentType
        let isAmzJSON = requestContentType.map { mediaType($0, is: amzJSON) } ?? false
        if head.method != .POST
            || (bodyLength > 0 && !isAmzJSON && !(requestContentType.map { mediaType($0, is: plainJSON) } ?? false))
        {
            return .respond(
                HTTPReply(status: .notFound, contentType: nil, body: unknownOperationXML, allowOrigin: allowOrigin),
                operation: "not a DynamoDB call"
            )
        }
        let contentType = isAmzJSON ? amzJSON : plainJSON
        func fail(_ error: DynamoError) -> Decision {
            .respond(.error(error, contentType: contentType, allowOrigin: allowOrigin), operation: operationLabel(summary.target))
        }

        // 5. JSON syntax. A hot operation's body is first offered to the fast decoder, which
        // takes only valid JSON, so the syntax check holds for it as well.
        let namedTarget = summary.target.flatMap(DynamoTarget.init(header:))
        var json = JSONValue.null
        var decoded: (any DynamoShape)?
        if let body, bodyLength > 0 {
            if let namedTarget, namedTarget.service == .dynamoDB,
                RequestFastDecoder.operations.contains(namedTarget.operation)
            {
                decoded = body.withUnsafeReadableBytes {
                    RequestFastDecoder.decode(operation: namedTarget.operation, bytes: $0)
                }
            }
            if decoded == nil {
                do {
                    json = try JSONValue(parsing: body.readableBytesView)
                } catch {
                    return fail(.serialization(nil))
                }
            }
        }

        // 6. Target.
        guard let target = namedTarget, dispatcher.supports(target: target) else {
            return fail(DynamoError(.unknownOperation))
        }

        // 7–8. Authorization: its shape, or with `--require-auth` its signature (over the body
        // as sent, before any inflation).
        let signer: (accessKeyID: String, region: String)
        if let authenticator {
            switch authenticator.authenticate(head, body: compressedBody) {
            case .failure(let error): return fail(error)
            case .success(let verified): signer = (verified.credentials.accessKeyID, verified.region)
            }
        } else {
            guard let authorizationValue = summary.authorization,
                let authorization = AuthorizationHeader(authorizationValue)
            else {
                return fail(ServerMessages.requestMissingAuthenticationToken)
            }
            if let message = authorization.incompleteSignatureMessage(hasDate: summary.hasDate) {
                return fail(DynamoError(.incompleteSignature, message))
            }
            signer = (authorization.accessKeyID, authorization.region)
        }

        // 9. Empty body, or the JSON literal `null` (no document either), late as DynamoDB
        // checks it. Other JSON that is not an object fails in the shape decoder.
        if bodyLength == 0 || (decoded == nil && json == .null) {
            return fail(.serialization(nil))
        }

        return .dispatch(
            Dispatch(
                target: target,
                body: decoded.flatMap { decoded in body.map { DynamoRequestBody(decoded: decoded, bytes: $0) } }
                    ?? DynamoRequestBody(json: json, source: body),
                context: DynamoRequestContext(
                    requestID: requestID,
                    accessKeyID: signer.accessKeyID,
                    region: signer.region,
                    headers: DynamoHeaders(headers)
                ),
                contentType: contentType,
                allowOrigin: allowOrigin
            ))
    }

    /// An answer given instead of decoding a body.
    struct BodyRefusal: Error {
        var decision: Decision
    }

    /// The body with its `Content-Encoding` undone.
    static func decodeBody(
        _ body: ByteBuffer?, summary: RequestHeaderSummary,
        maximumBodyBytes: Int
    ) -> Result<ByteBuffer?, BodyRefusal> {
        let coding = ContentCoding.requestCoding(summary.contentEncoding)
        guard coding != .identity else { return .success(body) }
        let label = operationLabel(summary.target)
        guard case .compressed(let format) = coding else {
            return .failure(
                BodyRefusal(
                    decision: .respond(
                        undecodable("Content-Encoding '\(summary.contentEncoding ?? "")' is not supported"), operation: label)))
        }
        do {
            let inflated = try Zlib.inflate(
                body.map { Array($0.readableBytesView) } ?? [], format: format,
                limit: maximumBodyBytes)
            return .success(ByteBuffer(bytes: inflated))
        } catch .tooLarge {
            return .failure(BodyRefusal(decision: .respond(.requestEntityTooLarge, operation: label)))
        } catch {
            let name = ContentCoding.headerValue(format)
            return .failure(
                BodyRefusal(
                    decision: .respond(
                        undecodable("The request body is not valid \(name) data (corrupt or truncated)"), operation: label)))
        }
    }

    /// DynamoDB answers a body it cannot decode with a 500; the message says why.
    private static func undecodable(_ message: String) -> HTTPReply {
        HTTPReply(
            status: .internalServerError, contentType: amzJSON,
            body: DynamoError(.internalServerError, message).body)
    }

    /// `/` with or without a query string.
    static func isRootPath(_ uri: String) -> Bool {
        uri == "/" || uri.utf8.starts(with: "/?".utf8)
    }

    /// Whether a `Content-Type` value names `expected` (ASCII case-insensitive, parameters such as
    /// `; charset=utf-8` ignored).
    static func mediaType(_ value: String, is expected: String) -> Bool {
        if value == expected { return true }
        let type = value.utf8.prefix { $0 != UInt8(ascii: ";") }
        let trimmed = type.drop { $0 == UInt8(ascii: " ") }.reversed().drop { $0 == UInt8(ascii: " ") }.reversed()
        return trimmed.count == expected.utf8.count
            && zip(trimmed, expected.utf8).allSatisfy { lowercased($0) == $1 }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// The operation name for the request log: the part of `X-Amz-Target` after the dot.
    static func operationLabel(_ target: String?) -> String {
        guard let target else { return "-" }
        if let dot = target.lastIndex(of: ".") { return String(target[target.index(after: dot)...]) }
        return target
    }
}
