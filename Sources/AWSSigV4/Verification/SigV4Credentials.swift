/// The signing parameters of one request, from its `Authorization` header or its presigned
/// query string, before any of them is checked.
package struct SigV4Credentials: Sendable, Hashable {
    /// Where the parameters came from.
    package enum Source: Sendable, Hashable {
        /// `Authorization: AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…`.
        case header
        /// `?X-Amz-Algorithm=…&X-Amz-Credential=…&…` (a presigned URL).
        case query
    }

    package var source: Source
    /// `AWS4-HMAC-SHA256`.
    package var algorithm: String
    /// `AKID/20260101/us-east-1/dynamodb/aws4_request`.
    package var credential: String
    /// `host;x-amz-date`.
    package var signedHeaders: String
    /// The hex signature.
    package var signature: String
    /// The request time as sent (`X-Amz-Date`, or the `Date` header).
    package var date: String
    /// Whether ``date`` came from a `Date` header (IMF-fixdate) rather than `X-Amz-Date`.
    package var dateIsHTTPDate = false
    /// The name of the header that carried the date (`x-amz-date` or `date`); `nil` for a
    /// presigned query, where the date is a signed query parameter.
    package var dateHeader: String?
    /// `X-Amz-Expires` of a presigned query, as sent.
    package var expires: String?
    /// `X-Amz-Security-Token`, from the header or the query.
    package var sessionToken: String?

    /// Reads the `Authorization` header's parameters as DynamoDB does: the text after the
    /// first space, split at commas and spaces into `key=value` pairs.
    ///
    /// - Returns: the parameters, or an `IncompleteSignatureException` naming every missing one.
    package static func fromHeader(_ authorization: String, headers: [(name: String, value: String)])
        -> Result<SigV4Credentials, SigV4Refusal>
    {
        let trimmed = authorization.drop { $0 == " " || $0 == "\t" }
        let algorithm = trimmed.prefix { $0 != " " }
        var parameters: [String: String] = [:]
        for piece in trimmed.dropFirst(algorithm.count).split(whereSeparator: { $0 == "," || $0 == " " }) {
            let halves = piece.split(separator: "=", maxSplits: 2, omittingEmptySubsequences: false)
            guard halves.count >= 2, !halves[1].isEmpty, parameters[String(halves[0])] == nil else { continue }
            parameters[String(halves[0])] = String(halves[1])
        }
        let amzDate = value(of: "x-amz-date", in: headers)
        let httpDate = amzDate == nil ? value(of: "date", in: headers) : nil
        if let message = SigV4Refusal.incompleteHeaderMessage(
            hasCredential: parameters["Credential"] != nil, hasSignature: parameters["Signature"] != nil,
            hasSignedHeaders: parameters["SignedHeaders"] != nil, hasDate: amzDate != nil || httpDate != nil,
            authorization: authorization)
        {
            return .failure(SigV4Refusal(.incompleteSignature, message))
        }
        return .success(
            SigV4Credentials(
                source: .header, algorithm: String(algorithm), credential: parameters["Credential"]!,
                signedHeaders: parameters["SignedHeaders"]!, signature: parameters["Signature"]!,
                date: amzDate ?? httpDate!, dateIsHTTPDate: amzDate == nil,
                dateHeader: amzDate == nil ? "date" : "x-amz-date", expires: nil,
                sessionToken: value(of: "x-amz-security-token", in: headers)))
    }

    /// Reads a presigned query's parameters (already percent-decoded).
    ///
    /// - Returns: the parameters, or an `IncompleteSignatureException` naming every missing one.
    package static func fromQuery(_ query: [String: String]) -> Result<SigV4Credentials, SigV4Refusal> {
        let required = ["X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature", "X-Amz-SignedHeaders", "X-Amz-Date"]
        let missing = required.filter { (query[$0] ?? "").isEmpty }
        guard missing.isEmpty else {
            let message = missing.map { "AWS query-string parameters must include '\($0)'. " }.joined()
            return .failure(SigV4Refusal(.incompleteSignature, message + "Re-examine the query-string parameters."))
        }
        return .success(
            SigV4Credentials(
                source: .query, algorithm: query["X-Amz-Algorithm"]!, credential: query["X-Amz-Credential"]!,
                signedHeaders: query["X-Amz-SignedHeaders"]!, signature: query["X-Amz-Signature"]!,
                date: query["X-Amz-Date"]!, dateHeader: nil, expires: query["X-Amz-Expires"],
                sessionToken: query["X-Amz-Security-Token"]))
    }

    /// The first value of a header, by lowercase name.
    static func value(of name: String, in headers: [(name: String, value: String)]) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }
}
