import Dispatch
#if canImport(Glibc)
    import Glibc
    private let posixSend = Glibc.send
    private let posixClose = Glibc.close
    private let posixShutdown = Glibc.shutdown
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let posixSend = Darwin.send
    private let posixClose = Darwin.close
    private let posixShutdown = Darwin.shutdown
    private let streamSocket = SOCK_STREAM
#endif

/// A deliberately small HTTP/1.1 client over a blocking POSIX socket, so the tests see exactly
/// the bytes the server sends (and can pipeline, half-close or send garbage).
///
/// Every call blocks a thread of the client's own Dispatch queue, never the cooperative pool; a receive timeout keeps a
/// broken server from hanging the test run.
final class TestHTTPClient: @unchecked Sendable {
    // Safe to share: the tests drive one connection from one task at a time.
    private let fd: Int32
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `127.0.0.1:port`.
    init(port: Int, receiveTimeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // No close here: every stored property is set, so a throw runs `deinit`, which closes the
        // socket. Closing it here too closed a descriptor number the process may have reused
        // meanwhile (the server's own accepted socket: EBADF in its getsockname).
        guard result == 0 else { throw Failure(description: "connect() failed: errno \(errno)") }
    }

    deinit {
        if fd >= 0 { _ = posixClose(fd) }
    }

    /// Where this connection's blocking calls run: a serial queue of its own, which (unlike the
    /// width-limited global queues) gets a thread at once even when other clients are blocked.
    private let queue = DispatchQueue(label: "TestHTTPClient")

    /// Runs blocking socket work on this client's queue.
    private func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    func send(_ bytes: [UInt8]) async throws {
        try await blocking { try self.sendBlocking(bytes) }
    }

    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Sends a request and reads its answer on the calling thread, never touching the concurrency
    /// pool: for tests that keep every thread of that pool busy on purpose.
    func exchangeOnThisThread(_ bytes: [UInt8]) throws -> TestHTTPResponse {
        try sendBlocking(bytes)
        return try readResponseBlocking(expectingBody: true)
    }

    private func sendBlocking(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { posixSend(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
            sent += n
        }
    }

    /// Closes the sending side (TCP half-close).
    func shutdownWrite() {
        _ = posixShutdown(fd, Int32(SHUT_WR))
    }

    /// Reads one response (an interim `100 Continue` counts as one); `expectingBody: false` for
    /// the answer to a `HEAD`.
    func readResponse(expectingBody: Bool = true) async throws -> TestHTTPResponse {
        try await blocking { try self.readResponseBlocking(expectingBody: expectingBody) }
    }

    /// Whether the server closed the connection (reads to end of stream, discarding bytes).
    func readUntilClosed() async throws -> Bool {
        try await blocking {
            while true {
                guard let more = try self.receive() else { return true }
                if more == 0 { return false } // timed out
            }
        }
    }

    /// `nil` at end of stream, 0 on timeout, else the number of bytes appended to `buffer`.
    private func receive() throws -> Int? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { return nil }
        if n < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            if errno == ECONNRESET { return nil }
            throw Failure(description: "recv() failed: errno \(errno)")
        }
        buffer.append(contentsOf: chunk[..<n])
        return n
    }

    private func readResponseBlocking(expectingBody: Bool) throws -> TestHTTPResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while true {
            if let end = firstRange(of: separator, in: buffer) { headEnd = end; break }
            guard let n = try receive() else { throw Failure(description: "connection closed before a response") }
            if n == 0 { throw Failure(description: "timed out waiting for a response") }
        }
        let headText = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + separator.count)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst()
        let statusParts = statusLine.split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(statusLine)")
        }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.append((String(line[..<colon]), String(value)))
        }
        var response = TestHTTPResponse(status: status, statusLine: statusLine, headers: headers, body: [])
        if (status >= 100 && status < 200) || !expectingBody { return response }
        if let length = response.header("content-length").flatMap({ Int($0) }) {
            while buffer.count < length {
                guard let n = try receive(), n > 0 else { throw Failure(description: "body cut short") }
            }
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else if response.header("transfer-encoding")?.lowercased() == "chunked" {
            response.body = try readChunkedBody()
        }
        return response
    }

    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        let crlf: [UInt8] = [13, 10]
        while true {
            var lineEnd: Int?
            while lineEnd == nil {
                lineEnd = firstRange(of: crlf, in: buffer)
                if lineEnd == nil { guard let n = try receive(), n > 0 else { throw Failure(description: "chunk cut short") } }
            }
            let size = Int(String(decoding: buffer[..<lineEnd!], as: UTF8.self), radix: 16) ?? 0
            buffer.removeFirst(lineEnd! + 2)
            while buffer.count < size + 2 {
                guard let n = try receive(), n > 0 else { throw Failure(description: "chunk cut short") }
            }
            body += buffer[..<size]
            buffer.removeFirst(size + 2)
            if size == 0 { return body }
        }
    }

    private func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}

/// One response as received.
struct TestHTTPResponse: Sendable {
    var status: Int
    var statusLine: String
    var headers: [(String, String)]
    var body: [UInt8]

    /// The first value of a header (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Builds request bytes; by default a well-formed, "signed" DynamoDB call.
enum TestRequest {
    static let authorization =
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/eu-west-1/dynamodb/aws4_request, "
        + "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0123456789abcdef"

    static func make(
        method: String = "POST",
        path: String = "/",
        version: String = "HTTP/1.1",
        target: String? = "DynamoDB_20120810.GetItem",
        contentType: String? = "application/x-amz-json-1.0",
        authorization: String? = TestRequest.authorization,
        date: String? = "20240101T000000Z",
        extraHeaders: [(String, String)] = [],
        body: String = "{}"
    ) -> String {
        var text = "\(method) \(path) \(version)\r\nHost: localhost\r\n"
        if let contentType { text += "Content-Type: \(contentType)\r\n" }
        if let target { text += "X-Amz-Target: \(target)\r\n" }
        if let authorization { text += "Authorization: \(authorization)\r\n" }
        if let date { text += "X-Amz-Date: \(date)\r\n" }
        for (name, value) in extraHeaders { text += "\(name): \(value)\r\n" }
        if !extraHeaders.contains(where: { $0.0.lowercased() == "transfer-encoding" }) {
            text += "Content-Length: \(body.utf8.count)\r\n"
        }
        return text + "\r\n" + body
    }
}

/// Keeps every thread of the global concurrency pool blocked (more blocking jobs than it has
/// threads, queued ahead of anything enqueued later) until ``end()``, or 30 s at most.
final class PoolOccupation: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let blockers: [Task<Void, Never>]

    init() {
        let release = release
        let threads = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        blockers = (0..<(4 * threads)).map { _ in
            Task.detached { _ = release.wait(timeout: .now() + 30) }
        }
    }

    func end() async {
        for _ in blockers { release.signal() }
        for blocker in blockers { await blocker.value }
    }
}
