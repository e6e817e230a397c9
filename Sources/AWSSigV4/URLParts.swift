import Foundation

/// The parts of an absolute `http(s)` URL that signing and endpoint resolution need, split
/// without Foundation's `URL` (which rejects or rewrites some of the paths the SigV4 test suite
/// uses).
package struct URLParts: Sendable, Hashable {
    /// `http` or `https`, lowercased.
    package var scheme: String
    /// The host, without brackets for IPv6 literals kept as written.
    package var host: String
    /// The explicit port, if any.
    package var port: Int?
    /// The path as written (percent-encoded form), `/` when empty.
    package var path: String
    /// The query as written, without `?`; `nil` when there is none.
    package var query: String?

    /// Splits `url`; `nil` when it has no `scheme://host`.
    package init?(_ url: String) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        scheme = url[..<schemeEnd.lowerBound].lowercased()
        var rest = url[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var remainder = rest[authorityEnd...]
        if let question = remainder.firstIndex(of: "?") {
            query = String(remainder[remainder.index(after: question)...])
            remainder = remainder[..<question]
        }
        path = remainder.isEmpty ? "/" : String(remainder)
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            host = String(authority[..<colon])
            guard let number = Int(authority[authority.index(after: colon)...]) else { return nil }
            port = number
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else { return nil }
    }

    /// `host` or `host:port`, leaving out the scheme's default port, as the `Host` header and
    /// botocore's signer write it.
    package var hostHeader: String {
        guard let port, !(scheme == "https" && port == 443), !(scheme == "http" && port == 80) else { return host }
        return "\(host):\(port)"
    }
}

/// Percent-encoding as SigV4 specifies it: every byte except the RFC 3986 unreserved characters
/// (`A–Z a–z 0–9 - _ . ~`) becomes `%XY` with uppercase hex.
package enum SigV4Encoding {
    /// Encodes `text`'s UTF-8 bytes; `/` is kept when `keepSlash` is true (paths).
    package static func encode(_ text: some StringProtocol, keepSlash: Bool = false) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepSlash:
                out.append(byte)
            default:
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XY` escapes; malformed escapes are kept as written. `+` stays `+`.
    package static func decode(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
                let value = UInt8(String(decoding: source[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986 "remove dot segments", plus collapsing repeated slashes as AWS services expect
    /// (what botocore's `normalize_url_path` does). An empty path is `/`.
    package static func normalizePath(_ path: String) -> String {
        guard !path.isEmpty else { return "/" }
        var output: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) where segment != "." {
            if segment == ".." {
                if !output.isEmpty { output.removeLast() }
            } else {
                output.append(segment)
            }
        }
        let leading = path.hasPrefix("/") ? "/" : ""
        let trailing = path.hasSuffix("/") && !output.isEmpty ? "/" : ""
        return leading + output.joined(separator: "/") + trailing
    }
}
