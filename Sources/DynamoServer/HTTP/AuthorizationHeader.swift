import AWSSigV4

/// The parts of a SigV4 `Authorization` header that the front end looks at.
///
/// `AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/dynamodb/aws4_request,
/// SignedHeaders=host;x-amz-date, Signature=abcd…`
///
/// Signatures are **not verified** here: like DynamoDB Local and dynalite, LocalDynamo accepts
/// any secret key unless it runs with `--require-auth` (then `RequestAuthenticator` verifies them). Only the header's presence and shape are checked (so clients that forget to sign
/// fail here as they would against DynamoDB), and the credential scope is read for the access key
/// id and region that pick a namespace.
///
/// Parsed over UTF-8 bytes: it runs on every request, and `Character`-level string handling made
/// it the most expensive step of a request.
struct AuthorizationHeader {
    /// The header value as received.
    var raw: String
    var hasCredential = false
    var hasSignature = false
    var hasSignedHeaders = false
    /// The access key id: the credential scope's first element.
    var accessKeyID = ""
    /// The region: the credential scope's third element, or empty when the scope is shorter.
    var region = ""

    /// Parses `value`; `nil` when it does not start with `AWS4-` (after leading spaces), which
    /// DynamoDB answers with `MissingAuthenticationTokenException`.
    ///
    /// Parameters are read as dynalite reads them: everything after the first space, spaces
    /// removed, split at commas into `key=value` pairs (a value ends at the next `=`); empty
    /// values count as missing.
    init?(_ value: String) {
        self.raw = value
        var value = value
        guard value.withUTF8({ parse($0) }) else { return nil }
    }

    private mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let space = UInt8(ascii: " ")
        var start = 0
        while start < bytes.count, bytes[start] == space || bytes[start] == UInt8(ascii: "\t") { start += 1 }
        let prefix: StaticString = "AWS4-"
        guard bytes.count - start >= prefix.utf8CodeUnitCount else { return false }
        for offset in 0..<prefix.utf8CodeUnitCount where bytes[start + offset] != prefix.utf8Start[offset] {
            return false
        }
        guard let schemeEnd = bytes[start...].firstIndex(of: space) else { return true }

        // The parameters with every space removed.
        let tail = UnsafeBufferPointer(rebasing: bytes[(schemeEnd + 1)...])
        let parameters = [UInt8](unsafeUninitializedCapacity: tail.count) { buffer, count in
            count = 0
            for byte in tail where byte != space {
                buffer[count] = byte
                count += 1
            }
        }
        parameters.withUnsafeBufferPointer { parameters in
            var segmentStart = 0
            while segmentStart < parameters.count {
                let segmentEnd = parameters[segmentStart...].firstIndex(of: UInt8(ascii: ",")) ?? parameters.count
                defer { segmentStart = segmentEnd + 1 }
                guard let equals = parameters[segmentStart..<segmentEnd].firstIndex(of: UInt8(ascii: "=")) else { continue }
                let valueEnd = parameters[(equals + 1)..<segmentEnd].firstIndex(of: UInt8(ascii: "=")) ?? segmentEnd
                guard valueEnd > equals + 1 else { continue }
                let key = UnsafeBufferPointer(rebasing: parameters[segmentStart..<equals])
                if Self.equals(key, "Credential") {
                    hasCredential = true
                    readScope(UnsafeBufferPointer(rebasing: parameters[(equals + 1)..<valueEnd]))
                } else if Self.equals(key, "Signature") {
                    hasSignature = true
                } else if Self.equals(key, "SignedHeaders") {
                    hasSignedHeaders = true
                }
            }
        }
        return true
    }

    /// Whether `bytes` are exactly `literal` (lengths first: most keys differ in length).
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        for offset in 0..<bytes.count where bytes[offset] != literal.utf8Start[offset] {
            return false
        }
        return true
    }

    /// Reads `AKID/date/region/service/aws4_request`.
    private mutating func readScope(_ scope: UnsafeBufferPointer<UInt8>) {
        var element = 0
        var start = 0
        for position in 0...scope.count where position == scope.count || scope[position] == UInt8(ascii: "/") {
            if element == 0 {
                accessKeyID = String(decoding: UnsafeBufferPointer(rebasing: scope[start..<position]), as: UTF8.self)
            } else if element == 2 {
                region = String(decoding: UnsafeBufferPointer(rebasing: scope[start..<position]), as: UTF8.self)
                return
            }
            element += 1
            start = position + 1
        }
    }

    /// The `IncompleteSignatureException` message DynamoDB sends when a parameter or the request
    /// date is missing, or `nil`.
    func incompleteSignatureMessage(hasDate: Bool) -> String? {
        SigV4Refusal.incompleteHeaderMessage(
            hasCredential: hasCredential, hasSignature: hasSignature,
            hasSignedHeaders: hasSignedHeaders, hasDate: hasDate, authorization: raw)
    }
}
