import DynamoAPI

/// The `x-amz-crc32` check botocore makes on every DynamoDB response: a body whose CRC-32
/// (DynamoAPI's `CRC32`, the one the server writes with) differs from the header was damaged in
/// transit, and the request is retried.
enum ResponseChecksum {
    /// The CRC-32 of `bytes`.
    ///
    /// - Complexity: O(n).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        CRC32.checksum(bytes)
    }

    /// Whether a response passes the check: `true` when it carries no `x-amz-crc32` header
    /// (not every endpoint sends one) or when the header matches the body.
    static func verify(_ response: HTTPResponse) -> Bool {
        guard let header = response.header("x-amz-crc32") else { return true }
        guard let expected = UInt32(header) else { return false }
        return crc32(response.body) == expected
    }
}
