import DynamoHTTP
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP transport over `URLSession`: the default on Apple platforms, and on Linux (through
/// FoundationNetworking) when `DYNAMOCLIENT_TRANSPORT=urlsession`.
///
/// It behaves like ``CurlTransport``: one shared ephemeral session whose connections are kept
/// alive and bounded by `maximumConnections`, no cookies, no caches, no credential storage,
/// `Accept-Encoding: identity` unless the request names an encoding (so `x-amz-crc32` covers the
/// bytes received), response headers with lowercased names, and failures as the same
/// ``TransportError`` kinds, so retries classify them alike. Requests that bypass proxies go
/// through a second session whose proxy dictionary is empty (on Linux, where FoundationNetworking
/// ignores that, they are refused while a proxy variable is set; see
/// `unbypassableProxy(for:environment:)`). Cancelling the calling task cancels
/// the request. No threads of its own: `URLSession` does the I/O.
///
/// ``HTTPTimeouts/request`` bounds the whole attempt, connection included (`URLSession` has
/// no connect-only limit, so ``HTTPTimeouts/connect`` is not applied separately; an attempt
/// that cannot connect fails with ``TransportError/Kind/timedOut`` once the request limit passes,
/// or earlier with `connectionFailed` when the connection is refused).
///
/// ```swift
/// let transport = URLSessionTransport(maximumConnections: 8)
/// let response = try await transport.send(
///     HTTPRequest(method: "GET", url: "http://127.0.0.1:8000/"), timeouts: HTTPTimeouts())
/// ```
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let directSession: URLSession

    /// Creates a transport.
    ///
    /// - Parameter maximumConnections: How many connections to one host are open at once;
    ///   further requests wait their turn. Default 16.
    public init(maximumConnections: Int = 16) {
        session = URLSession(configuration: Self.configuration(maximumConnections: maximumConnections, direct: false))
        directSession = URLSession(configuration: Self.configuration(maximumConnections: maximumConnections, direct: true))
    }

    deinit {
        session.finishTasksAndInvalidate()
        directSession.finishTasksAndInvalidate()
    }

    /// Sends one request.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - timeouts: The whole-attempt limit (``HTTPTimeouts/request``).
    /// - Returns: The response, whatever its status.
    /// - Throws: ``TransportError`` when no response arrived, `CancellationError` when the task
    ///   was cancelled.
    public func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        let urlRequest = try Self.urlRequest(for: request, timeouts: timeouts)
        if let refusal = Self.unbypassableProxy(for: request) { throw refusal }
        let session = request.bypassesProxy ? directSession : session
        let result = await withTaskGroup(of: Result<HTTPResponse, TransportError>?.self) { group in
            group.addTask { await Self.perform(urlRequest, on: session) }
            group.addTask {
                // The overall deadline: URLSession's own timeout restarts with every byte received.
                guard (try? await Task.sleep(for: timeouts.request)) != nil else { return nil }
                return .failure(TransportError(.timedOut, "no complete response within \(timeouts.request)"))
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            return Result<HTTPResponse, TransportError>.failure(TransportError(.other, "cancelled"))
        }
        try Task.checkCancellation()
        return try result.get()
    }

    /// Runs one data task; cancelling the calling task cancels it.
    private static func perform(_ request: URLRequest, on session: URLSession) async -> Result<HTTPResponse, TransportError> {
        let holder = DataTaskHolder()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(returning: .failure(TransportError(urlError: error)))
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: .success(HTTPResponse(urlResponse: response, body: data ?? Data())))
                    } else {
                        continuation.resume(returning: .failure(TransportError(.connectionLost, "no HTTP response")))
                    }
                }
                holder.start(task)
            }
        } onCancel: {
            holder.cancel()
        }
    }

    /// FoundationNetworking (Linux) ignores an empty proxy dictionary: the libcurl inside it
    /// still takes `http_proxy`, `https_proxy` and `all_proxy` from the environment. A request
    /// that must not reach a proxy (metadata tokens) is refused there while one is set, rather
    /// than forwarded; libcurl's own transport (the Linux default) honours the bypass.
    static func unbypassableProxy(
        for request: HTTPRequest, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TransportError? {
        #if canImport(FoundationNetworking)
            let names = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
            guard request.bypassesProxy, let name = names.first(where: { !(environment[$0] ?? "").isEmpty }) else { return nil }
            return TransportError(
                .invalidRequest,
                "\(name) is set and FoundationNetworking cannot bypass it for this request; "
                    + "not sent (DYNAMOCLIENT_TRANSPORT=curl honours the bypass)")
        #else
            return nil
        #endif
    }

    private static func configuration(maximumConnections: Int, direct: Bool) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, maximumConnections)
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        if direct {
            // An empty dictionary means no proxy at all (nil would mean the system's settings).
            configuration.connectionProxyDictionary = [:]
        }
        return configuration
    }

    /// The `URLRequest` for a request, refusing what ``CurlTransport`` refuses.
    static func urlRequest(for request: HTTPRequest, timeouts: HTTPTimeouts) throws(TransportError) -> URLRequest {
        guard request.url.isSafeHeaderText else {
            throw TransportError(.invalidRequest, "the URL contains CR, LF or NUL; not sent")
        }
        if let name = request.unsafeHeaderName {
            throw TransportError(.invalidRequest, "header \(name.isSafeHeaderText ? name : "name") contains CR, LF or NUL; not sent")
        }
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(), url.host != nil else {
            throw TransportError(.invalidRequest, "malformed URL \(request.url)")
        }
        guard scheme == "http" || scheme == "https" else {
            throw TransportError(.invalidRequest, "unsupported protocol \(scheme)")
        }
        var urlRequest = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: max(timeouts.request.timeInterval, 0.001))
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        if request.header("Accept-Encoding") == nil {
            urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        if !request.body.isEmpty || (request.method != "GET" && request.method != "HEAD") {
            urlRequest.httpBody = Data(request.body)
        }
        return urlRequest
    }
}

/// The data task of one ``URLSessionTransport`` request, so a cancellation that arrives before
/// or after it starts still cancels it. Safe to share: its state is guarded by `lock`.
private final class DataTaskHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isCancelled = false

    func start(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = isCancelled
        lock.unlock()
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}

extension HTTPResponse {
    /// The response as ``CurlTransport`` reports it: status, headers with lowercased names, body.
    init(urlResponse: HTTPURLResponse, body: Data) {
        var headers: [String: String] = [:]
        for (name, value) in urlResponse.allHeaderFields {
            guard let name = name as? String else { continue }
            headers[name.lowercased()] = (value as? String) ?? "\(value)"
        }
        self.init(status: urlResponse.statusCode, headers: headers, body: [UInt8](body))
    }
}
