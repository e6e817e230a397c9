import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A scripted HTTP/1.1 server on `127.0.0.1`, port 0, for the client's failure paths.
///
/// Each request takes the next ``Action`` of the script (the last one repeats when the script
/// runs out). Connections are kept alive as HTTP/1.1 allows, each served on its own thread.
/// Every request is recorded.
final class FakeHTTPServer: Sendable {
    /// What the server does with one request.
    enum Action: Sendable {
        /// Answers with a status, headers and body; `crc` decides the `x-amz-crc32` header.
        case respond(status: Int, headers: [String: String] = [:], body: String, crc: CRCMode = .correct)
        /// Reads the request, then closes the connection without answering.
        case dropConnection
        /// Waits, then performs another action (the client may have given up by then).
        indirect case delay(Duration, Action)
        /// Waits until `count` requests have been in flight at once (now or earlier), or until
        /// `limit` passed, then performs another action: a transport that runs that many at once
        /// reaches ``FakeHTTPServer/peakConcurrentRequests`` however slowly a loaded machine
        /// starts its transfers, and one that runs fewer stays below it.
        indirect case afterConcurrent(Int, limit: Duration, Action)

        /// A DynamoDB-style JSON error.
        static func error(_ status: Int, _ type: String, _ message: String) -> Action {
            .respond(status: status, body: #"{"__type":"com.amazonaws.dynamodb.v20120810#\#(type)","message":"\#(message)"}"#)
        }

        /// `200` with a JSON body.
        static func ok(_ body: String = "{}") -> Action { .respond(status: 200, body: body) }

        /// An answer held for 600 s, far past any wait of ``FakeHTTPServer/abandonedDelays(reaching:within:)``:
        /// whether the client abandoned it is then decided by its closing the connection, never
        /// by how fast a loaded machine schedules the close.
        static func held(_ next: Action = .ok()) -> Action { .delay(.seconds(600), next) }
    }

    /// How the `x-amz-crc32` header is written.
    enum CRCMode: Sendable { case correct, wrong, absent }

    /// One received request.
    struct Request: Sendable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: String
        /// Which accepted connection it came on (1 for the first).
        var connection = 0
    }

    let port: Int
    var url: String { "http://127.0.0.1:\(port)/" }
    private let listener: Int32
    private let state: Mutex<(script: [Action], requests: [Request], connections: Set<Int32>, accepted: Int, stopped: Bool)>
    /// Requests being answered right now, and the most there ever were at once.
    private let concurrency = Mutex((current: 0, peak: 0))
    /// Delays the client gave up on: it closed the connection before the delayed answer.
    private let abandoned = Mutex(0)

    /// How many delayed answers the client abandoned (closed its connection before the delay
    /// ended): the timing-free proof that a timeout or a cancellation ended the transfer.
    var abandonedDelays: Int { abandoned.withLock { $0 } }

    /// Waits until the server has seen `count` abandoned delays, or `limit` passed (a delay
    /// the client did not abandon ends with its answer, so a limit as long as the delay
    /// decides without racing the server's thread).
    func abandonedDelays(reaching count: Int, within limit: Duration = .seconds(120)) async throws -> Int {
        let deadline = ContinuousClock.now + limit
        while abandonedDelays < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        return abandonedDelays
    }

    /// Starts the server with a script.
    init(script: [Action]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        state = Mutex((script, [], [], 0, false))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The requests received so far.
    var requests: [Request] { state.withLock { $0.requests } }

    /// How many connections carried a request. A test process runs many servers and clients at
    /// once, and a listening port freed by one test may be handed to another: a client of the
    /// first that connects again is accepted here but sends this server nothing it answers as
    /// its own; so this counts the connections requests came on, not the ones accepted.
    var requestConnectionCount: Int { state.withLock { Set($0.requests.map(\.connection)).count } }

    /// The most requests that were being answered at the same time.
    var peakConcurrentRequests: Int { concurrency.withLock { $0.peak } }

    /// Stops accepting and shuts every open connection down.
    ///
    /// File descriptors are closed only by the threads that own them (the accept loop closes the
    /// listener once `accept` fails; a connection thread closes its socket under the lock), so a
    /// descriptor number reused by another server is never touched.
    func stop() {
        state.withLock { state in
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for socket in state.connections { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                close(listener)
                return
            }
            let ordinal = state.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                state.connections.insert(connection)
                state.accepted += 1
                return state.accepted
            }
            guard let ordinal else {
                close(connection)
                continue
            }
            let thread = Thread { [self] in serve(connection, ordinal: ordinal) }
            thread.start()
        }
    }

    private func nextAction() -> Action {
        state.withLock { state in
            state.script.count > 1 ? state.script.removeFirst() : (state.script.first ?? .ok())
        }
    }

    private func serve(_ connection: Int32, ordinal: Int) {
        defer {
            state.withLock { state in
                state.connections.remove(connection)
                close(connection)
            }
        }
        var buffer: [UInt8] = []
        while var request = readRequest(connection, buffer: &buffer) {
            request.connection = ordinal
            state.withLock { [request] in $0.requests.append(request) }
            concurrency.withLock { counts in
                counts.current += 1
                counts.peak = max(counts.peak, counts.current)
            }
            let keepOpen = perform(nextAction(), on: connection)
            concurrency.withLock { $0.current -= 1 }
            guard keepOpen else { return }
        }
    }

    /// Performs an action; returns whether the connection stays open.
    private func perform(_ action: Action, on connection: Int32) -> Bool {
        switch action {
        case .dropConnection:
            return false
        case .delay(let duration, let next):
            // Waits for the delay or for the client to close its side, whichever comes first.
            let deadline = ContinuousClock.now + duration
            while ContinuousClock.now < deadline {
                let remaining = deadline - ContinuousClock.now
                let milliseconds = Int32(min(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000, 100))
                var watch = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                guard poll(&watch, 1, max(milliseconds, 1)) > 0 else { continue }
                var byte: UInt8 = 0
                if recv(connection, &byte, 1, Int32(MSG_PEEK)) <= 0 {
                    abandoned.withLock { $0 += 1 }
                    return false
                }
                usleep(10_000) // more request bytes (pipelining): keep waiting out the delay
            }
            return perform(next, on: connection)
        case .afterConcurrent(let count, let limit, let next):
            let deadline = ContinuousClock.now + limit
            while concurrency.withLock({ $0.peak }) < count, ContinuousClock.now < deadline { usleep(1_000) }
            return perform(next, on: connection)
        case .respond(let status, let headers, let body, let crc):
            let bodyBytes = Array(body.utf8)
            var head = "HTTP/1.1 \(status) Status\r\nContent-Type: application/x-amz-json-1.0\r\n"
            head += "Content-Length: \(bodyBytes.count)\r\n"
            if !headers.keys.contains(where: { $0.lowercased() == "x-amzn-requestid" }) {
                head += "x-amzn-RequestId: fake-\(UUID().uuidString)\r\n"
            }
            switch crc {
            case .correct: head += "x-amz-crc32: \(Self.crc32(bodyBytes))\r\n"
            case .wrong: head += "x-amz-crc32: \(Self.crc32(bodyBytes) ^ 0xFFFF)\r\n"
            case .absent: break
            }
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            let bytes = Array((head + "\r\n").utf8) + bodyBytes
            return bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
        }
    }

    private func readRequest(_ connection: Int32, buffer: inout [UInt8]) -> Request? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while true {
            if let end = Self.find(separator, in: buffer) { headerEnd = end; break }
            guard receive(connection, into: &buffer) else { return nil }
        }
        guard let end = headerEnd else { return nil }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < end + 4 + length {
            guard receive(connection, into: &buffer) else { return nil }
        }
        let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
        buffer.removeFirst(end + 4 + length)
        return Request(
            method: String(requestLine.first ?? ""), path: String(requestLine.dropFirst().first ?? ""),
            headers: headers, body: body)
    }

    private func receive(_ connection: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }
}

/// Runs `body` with a started fake server and stops it afterwards, also on error.
func withFakeServer<T>(_ script: [FakeHTTPServer.Action], _ body: (FakeHTTPServer) async throws -> T) async throws -> T {
    let server = try FakeHTTPServer(script: script)
    do {
        let result = try await body(server)
        server.stop()
        return result
    } catch {
        server.stop()
        throw error
    }
}

/// Runs `body` with a loopback port that refuses connections: a socket is bound to it but not
/// listening, which also keeps any other test from taking the port meanwhile.
func withRefusingPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(holder) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(holder, pointer, length) == 0 && getsockname(holder, pointer, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return try await body(Int(UInt16(bigEndian: address.sin_port)))
}
