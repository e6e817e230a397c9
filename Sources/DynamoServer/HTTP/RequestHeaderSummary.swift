import NIOHTTP1

/// The request headers the wire checks read, found in one pass over the headers.
///
/// Looking each up with `HTTPHeaders.first(name:)` scans every header once per name; with the
/// eight names below that was a visible share of a request's cost.
struct RequestHeaderSummary {
    /// The `Origin` header's value.
    var origin: String?
    var contentType: String?
    var target: String?
    var authorization: String?
    /// `X-Amz-Date` or `Date` is present.
    var hasDate = false
    var contentLength: Int?
    /// `Expect: 100-continue`.
    var expectsContinue = false
    /// `Content-Encoding` (the body's compression).
    var contentEncoding: String?
    /// `Accept-Encoding`; the last one when repeated, as DynamoDB reads it.
    var acceptEncoding: String?

    init(_ headers: HTTPHeaders) {
        for (name, value) in headers {
            switch name.utf8.count {
            case 4:
                if Self.equals(name, "date") { hasDate = true }
            case 6:
                if Self.equals(name, "origin") {
                    origin = value
                } else if Self.equals(name, "expect") {
                    expectsContinue = Self.equals(value, "100-continue")
                }
            case 10:
                if Self.equals(name, "x-amz-date") { hasDate = true }
            case 12:
                if contentType == nil, Self.equals(name, "content-type") {
                    contentType = value
                } else if target == nil, Self.equals(name, "x-amz-target") {
                    target = value
                }
            case 13:
                if authorization == nil, Self.equals(name, "authorization") { authorization = value }
            case 14:
                if contentLength == nil, Self.equals(name, "content-length") { contentLength = Int(value) }
            case 15:
                if Self.equals(name, "accept-encoding") { acceptEncoding = value }
            case 16:
                if contentEncoding == nil, Self.equals(name, "content-encoding") { contentEncoding = value }
            default:
                continue
            }
        }
    }

    /// ASCII case-insensitive comparison with a lowercase literal.
    static func equals(_ text: String, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard text.utf8.count == count else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: count)
        // Header names and values are native strings, so their bytes are contiguous; iterating
        // `utf8` byte by byte cost several times more.
        if let equal = text.utf8.withContiguousStorageIfAvailable({ Self.foldedEquals($0, expected) }) {
            return equal
        }
        return Self.foldedEquals(Array(text.utf8), expected)
    }

    private static func foldedEquals(_ bytes: some Collection<UInt8>, _ expected: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        for byte in bytes {
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if folded != expected[index] { return false }
            index += 1
        }
        return true
    }
}
