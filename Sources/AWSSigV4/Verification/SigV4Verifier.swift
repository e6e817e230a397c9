import Foundation

/// A request as it arrived, for ``SigV4Verifier``: what the canonical request is rebuilt from.
public struct SigV4IncomingRequest: Sendable {
    /// `POST`, `GET`, ...
    public var method: String
    /// The request target as sent: the path and, after `?`, the query.
    public var target: String
    /// Every header, in arrival order.
    public var headers: [(name: String, value: String)]

    /// Creates a request.
    public init(method: String, target: String, headers: [(name: String, value: String)]) {
        self.method = method
        self.target = target
        self.headers = headers
    }

    /// The path part of ``target``.
    var path: String {
        target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
    }

    /// The raw query part of ``target`` (without `?`), or `nil`.
    var rawQuery: String? {
        target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
    }

    /// The query's parameters, percent-decoded (the first of repeated names wins).
    var queryParameters: [String: String] {
        guard let rawQuery else { return [:] }
        var parameters: [String: String] = [:]
        for pair in rawQuery.split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = SigV4Encoding.decode(halves[0])
            if parameters[name] == nil { parameters[name] = halves.count > 1 ? SigV4Encoding.decode(halves[1]) : "" }
        }
        return parameters
    }
}

/// A request whose signature checked out: who signed it and for which region.
public struct SigV4Verified: Sendable, Hashable {
    /// The identity whose secret made the signature.
    public var credentials: AWSCredentials
    /// The region of the credential scope.
    public var region: String
}

/// Verifies AWS Signature Version 4 on incoming requests, from the `Authorization` header or a
/// presigned query string, in the order and with the errors DynamoDB answers with:
///
/// 1. both a presigned query and an `Authorization` header → `InvalidSignatureException`;
/// 2. neither (or a header not starting with `AWS4-`) → `MissingAuthenticationTokenException`;
/// 3. a missing parameter or date → `IncompleteSignatureException`;
/// 4. a date not in ISO 8601 basic format → `IncompleteSignatureException`; a time more than
///    ``allowedSkew`` seconds away from `now` (or past a presigned URL's `X-Amz-Expires`) →
///    `InvalidSignatureException` "Signature expired: …" / "Signature not yet current: …";
/// 5. `host` (and the date header) not among the signed headers → `InvalidSignatureException`;
/// 6. an algorithm other than `AWS4-HMAC-SHA256`, a credential not of five elements →
///    `IncompleteSignatureException`;
/// 7. a scope for another service, terminator or day → `InvalidSignatureException` (every
///    region is valid: each region is a namespace of its own);
/// 8. an unknown access key id → `UnrecognizedClientException`;
/// 9. a signature that differs from the one computed with the identity's secret over the
///    canonical request (method, path, query, signed headers, body hash) →
///    `InvalidSignatureException`;
/// 10. a session token other than the identity's → `UnrecognizedClientException`.
///
/// Pure logic: the caller passes the time and the identities.
///
/// ```swift
/// let verifier = SigV4Verifier(service: "dynamodb")
/// let verdict = verifier.verify(request, now: clock.now(), payloadHash: { SHA256.hash(body).hexString },
///                               identity: { identities[$0] })
/// ```
package struct SigV4Verifier: Sendable {
    /// The signing name requests must be scoped to (`dynamodb`; Streams also signs as `dynamodb`).
    package var service: String
    /// How far, in seconds, a request's time may be from the server's (DynamoDB: 15 minutes).
    package var allowedSkew: Double
    /// Derived keys, shared across requests.
    package let keys: SigV4SigningKeyCache

    /// Creates a verifier.
    package init(service: String, allowedSkew: Double = 900, keys: SigV4SigningKeyCache = SigV4SigningKeyCache()) {
        self.service = service
        self.allowedSkew = allowedSkew
        self.keys = keys
    }

    /// Checks one request.
    ///
    /// - Parameters:
    ///   - request: the request as received.
    ///   - now: the server's time, seconds since 1970.
    ///   - payloadHash: the hex SHA-256 of the body (called only when the signature is computed).
    ///   - identity: the accepted identity with an access key id, if any.
    /// - Returns: the signer and region, or DynamoDB's refusal.
    package func verify(
        _ request: SigV4IncomingRequest, now: Double, payloadHash: () -> String,
        identity: (String) -> AWSCredentials?
    ) -> Result<SigV4Verified, SigV4Refusal> {
        let query = request.queryParameters
        let authorization = SigV4Credentials.value(of: "authorization", in: request.headers)
        let presigned = query["X-Amz-Algorithm"] != nil
        if authorization != nil, presigned {
            return .failure(
                SigV4Refusal(
                    .invalidSignature,
                    "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header."))
        }
        let parsed: Result<SigV4Credentials, SigV4Refusal>
        if let authorization {
            guard authorization.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("AWS4-") else {
                return .failure(.missingToken)
            }
            parsed = SigV4Credentials.fromHeader(authorization, headers: request.headers)
        } else if presigned {
            parsed = SigV4Credentials.fromQuery(query)
        } else {
            return .failure(.missingToken)
        }
        switch parsed {
        case .failure(let refusal): return .failure(refusal)
        case .success(let credentials):
            return verify(credentials, request: request, now: now, payloadHash: payloadHash, identity: identity)
        }
    }

    private func verify(
        _ credentials: SigV4Credentials, request: SigV4IncomingRequest, now: Double,
        payloadHash: () -> String, identity: (String) -> AWSCredentials?
    )
        -> Result<SigV4Verified, SigV4Refusal>
    {
        // 4. The date, then the time window.
        let parsedTime =
            credentials.dateIsHTTPDate
            ? SigV4Time.parseHTTPDate(credentials.date)
            : SigV4Time.parseBasic(credentials.date)
        guard let time = parsedTime else {
            return .failure(
                SigV4Refusal(
                    .incompleteSignature,
                    "Date must be in ISO-8601 'basic format'. Got '\(credentials.date)'. See http://en.wikipedia.org/wiki/ISO_8601"))
        }
        if let refusal = timeRefusal(time, credentials: credentials, now: now) { return .failure(refusal) }

        // 5. Host and the date header must be signed.
        let signed = Set(credentials.signedHeaders.lowercased().split(separator: ";").map(String.init))
        guard signed.contains("host") else {
            return .failure(
                SigV4Refusal(
                    .invalidSignature,
                    "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."))
        }
        if let dateHeader = credentials.dateHeader, !signed.contains(dateHeader) {
            return .failure(
                SigV4Refusal(
                    .invalidSignature,
                    "'\(dateHeader == "date" ? "Date" : "X-Amz-Date")' must be a 'SignedHeader' in the AWS Authorization."))
        }

        // 6. Algorithm and credential shape.
        guard credentials.algorithm == "AWS4-HMAC-SHA256" else {
            return .failure(
                SigV4Refusal(
                    .incompleteSignature,
                    "Unsupported AWS 'algorithm': '\(credentials.algorithm)' (only AWS4-HMAC-SHA256 for now). "))
        }
        var credential = Substring(credentials.credential)
        while credential.hasSuffix("/") { credential = credential.dropLast() }
        let scope = credential.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard scope.count == 5 else {
            return .failure(
                SigV4Refusal(
                    .incompleteSignature,
                    "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '\(credential)'"))
        }

        // 7. The scope.
        let stamp = AmzDate(secondsSince1970: time)
        var problems = ""
        if scope[2].isEmpty { problems += "Credential should be scoped to a valid region, not ''. " }
        if scope[3] != service { problems += "Credential should be scoped to correct service: '\(service)'. " }
        if scope[4] != "aws4_request" {
            problems += "Credential should be scoped with a valid terminator: 'aws4_request', not '\(scope[4])'. "
        }
        if scope[1] != stamp.day {
            problems +=
                "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: "
                + "'\(scope[1])' != '\(stamp.day)', from '\(stamp.timestamp)'."
        }
        if !problems.isEmpty {
            return .failure(
                SigV4Refusal(
                    .invalidSignature,
                    problems.hasSuffix(" ") ? String(problems.dropLast()) : problems))
        }

        // 8. The access key.
        guard let secret = identity(scope[0]) else { return .failure(.unknownAccessKey) }

        // 9. The signature.
        let signer = SigV4Signer(service: scope[3], region: scope[2])
        var query = request.rawQuery
        if credentials.source == .query {
            query = query.map { raw in
                raw.split(separator: "&").filter { !$0.hasPrefix("X-Amz-Signature=") }.joined(separator: "&")
            }
        }
        let canonical = SigV4Signer.canonicalRequest(
            method: request.method, path: request.path, query: query, headers: request.headers, defaultHost: nil,
            payloadHash: payloadHash(), signing: signed)
        let stringToSign = signer.stringToSign(canonicalRequest: canonical.text, time: stamp)
        let key = keys.signingKey(signer, secretAccessKey: secret.secretAccessKey, day: scope[1])
        let expected = SigV4Signer.signature(stringToSign: stringToSign, signingKey: key)
        guard Self.constantTimeEquals(expected, credentials.signature.lowercased()) else {
            return .failure(.signatureMismatch)
        }

        // 10. The session token.
        guard credentials.sessionToken == secret.sessionToken else { return .failure(.wrongSessionToken) }
        return .success(SigV4Verified(credentials: secret, region: scope[2]))
    }

    /// The refusal for a request time outside the window, or `nil`.
    private func timeRefusal(_ time: Double, credentials: SigV4Credentials, now: Double) -> SigV4Refusal? {
        let sent = credentials.dateIsHTTPDate ? SigV4Time.basic(time) : credentials.date
        if credentials.source == .query, let expires = credentials.expires {
            guard let seconds = Int(expires), (1...604_800).contains(seconds) else {
                return SigV4Refusal(
                    .incompleteSignature,
                    "X-Amz-Expires must be an integer between 1 and 604800 seconds; got '\(expires)'.")
            }
            if now > time + Double(seconds) {
                return SigV4Refusal(
                    .invalidSignature,
                    "Signature expired: \(sent) is now earlier than "
                        + "\(SigV4Time.basic(now - Double(seconds))) (\(SigV4Time.basic(now)) - \(seconds) sec.)")
            }
        } else if now - time > allowedSkew {
            return SigV4Refusal(
                .invalidSignature,
                "Signature expired: \(sent) is now earlier than "
                    + "\(SigV4Time.basic(now - allowedSkew)) (\(SigV4Time.basic(now)) - \(Self.render(allowedSkew)))")
        }
        if time - now > allowedSkew {
            return SigV4Refusal(
                .invalidSignature,
                "Signature not yet current: \(sent) is still later than "
                    + "\(SigV4Time.basic(now + allowedSkew)) (\(SigV4Time.basic(now)) + \(Self.render(allowedSkew)))")
        }
        return nil
    }

    /// `15 min.` for 900 seconds, `30 sec.` when not whole minutes.
    private static func render(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return whole % 60 == 0 ? "\(whole / 60) min." : "\(whole) sec."
    }

    /// Compares two signatures without stopping at the first difference.
    static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8), b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

extension AmzDate {
    /// The forms of a time in seconds since 1970.
    init(secondsSince1970 seconds: Double) {
        self.init(Date(timeIntervalSince1970: seconds))
    }
}
