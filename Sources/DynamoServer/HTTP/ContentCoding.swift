/// The content codings DynamoDB speaks: `gzip` and `deflate` request bodies, and compressed
/// responses for clients that accept them.
///
/// What the service does, as measured against it (ScyllaDB's Alternator tests of 2025, run
/// against DynamoDB):
/// - A request body with `Content-Encoding: gzip` or `deflate` is inflated before anything
///   else; concatenated gzip members are one body, bytes after the last member are ignored.
///   A corrupt, truncated or empty compressed body, or any other coding, is answered 500.
/// - A response of at least 4 KiB is compressed when `Accept-Encoding` allows `gzip` or
///   `deflate`; `x-amz-crc32` is the checksum of the bytes sent (the compressed ones).
enum ContentCoding {
    /// Responses shorter than this are never compressed (DynamoDB's threshold).
    static let compressionThreshold = 4096

    /// What a request's `Content-Encoding` asks of its body.
    enum RequestCoding: Equatable {
        case identity
        case compressed(Zlib.Format)
        /// A coding DynamoDB does not know.
        case unsupported
    }

    /// The request coding named by a `Content-Encoding` value (absent or `identity`: none).
    static func requestCoding(_ header: String?) -> RequestCoding {
        guard let header else { return .identity }
        switch header.trimmingSpaces.lowercased() {
        case "", "identity": return .identity
        case "gzip": return .compressed(.gzip)
        case "deflate": return .compressed(.zlib)
        default: return .unsupported
        }
    }

    /// The coding a response may use under an `Accept-Encoding` value, or `nil` for none.
    ///
    /// The rules DynamoDB follows: codings compared case-insensitively; a coding's weight is
    /// its first `q` parameter (default 1, above 1 counts as 1, unparsable counts as 1, zero or
    /// less refuses it); the highest weight wins, ties go to the coding named first; `*` gives
    /// its weight to the codings not named (gzip before deflate); `identity` and unknown
    /// codings are ignored; an element that is not a plain token (`"gzip"`, `gzip br`) names
    /// nothing.
    static func responseFormat(acceptEncoding header: String?) -> Zlib.Format? {
        guard let header else { return nil }
        var named: [(format: Zlib.Format, weight: Double)] = []
        var star: Double?
        for element in header.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = element.split(separator: ";", omittingEmptySubsequences: false)
            let coding = String(parts[0]).trimmingSpaces.lowercased()
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2, String(pair[0]).trimmingSpaces.lowercased() == "q" else { continue }
                if let value = Double(String(pair[1]).trimmingSpaces) { weight = min(value, 1) }
                break
            }
            switch coding {
            case "gzip", "deflate":
                let format: Zlib.Format = coding == "gzip" ? .gzip : .zlib
                if let index = named.firstIndex(where: { $0.format == format }) {
                    named[index].weight = max(named[index].weight, weight)
                } else {
                    named.append((format, weight))
                }
            case "*":
                star = max(star ?? weight, weight)
            default:
                continue
            }
        }
        var candidates = named
        if let star {
            for format in [Zlib.Format.gzip, .zlib] where !named.contains(where: { $0.format == format }) {
                candidates.append((format, star))
            }
        }
        var best: (format: Zlib.Format, weight: Double)?
        for candidate in candidates where candidate.weight > 0 && candidate.weight > (best?.weight ?? 0) {
            best = candidate
        }
        return best?.format
    }

    /// The `Content-Encoding` value of a response format.
    static func headerValue(_ format: Zlib.Format) -> String {
        format == .gzip ? "gzip" : "deflate"
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs (compared as bytes: header values
    /// are ASCII, and walking `Character`s cost tens of thousands of instructions per header).
    var trimmingSpaces: String {
        let bytes = utf8
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
