import Foundation
import NIOHTTP1

/// The browser console at `/console`: static files embedded in the binary (see
/// `scripts/generate-console.py`), served to `GET` and `HEAD`. The page talks to the server only
/// through the ordinary DynamoDB API, signing its calls with SigV4 in the browser.
enum ConsoleAssets {
    /// One embedded file of `console/`.
    struct File: Sendable {
        var name: String
        var contentType: String
        var base64: String
    }

    /// The path prefix of the console's files.
    static let prefix = "/console/"

    /// Decoded answers by path (`/console/` and `/console` serve `index.html`), built once.
    static let replies: [String: HTTPReply] = {
        var replies: [String: HTTPReply] = [:]
        for file in embedded {
            guard let data = Data(base64Encoded: file.base64, options: .ignoreUnknownCharacters) else {
                preconditionFailure("console/\(file.name) is not valid base64: regenerate the console assets")
            }
            let reply = HTTPReply(status: .ok, contentType: file.contentType, body: Array(data), extraHeaders: headers)
            replies[prefix + file.name] = reply
            if file.name == "index.html" {
                replies["/console"] = reply
                replies[prefix] = reply
            }
        }
        return replies
    }()

    /// Fresh copies on every load (the files change with the binary) and a policy that lets the
    /// page load its own files and call its own origin only.
    static let headers = [
        ("Cache-Control", "no-cache"),
        ("X-Content-Type-Options", "nosniff"),
        (
            "Content-Security-Policy",
            "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"
        ),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// The answer to a console request, or `nil` when the request is not one (another path, or
    /// a method other than `GET` / `HEAD`). An unknown file under `/console/` is a plain 404.
    static func reply(method: HTTPMethod, uri: String) -> HTTPReply? {
        guard method == .GET || method == .HEAD else { return nil }
        let path = String(uri.prefix { $0 != "?" && $0 != "#" })
        guard path == "/console" || path.hasPrefix(prefix) else { return nil }
        return replies[path]
            ?? HTTPReply(
                status: .notFound, contentType: "text/plain; charset=utf-8",
                body: Array("No console file at \(path)\n".utf8))
    }
}
