#if canImport(CCurl)
    /// The HTTP transport over libcurl: keep-alive connections, timeouts, TLS with the system's CA
    /// store (or a CA bundle file: `AWS_CA_BUNDLE` / `ca_bundle`), proxies from `http_proxy` / `https_proxy` / `no_proxy`, and a bound on concurrent
    /// transfers.
    ///
    /// Each transfer blocks one of the transport's own threads (never a thread of Swift's
    /// cooperative pool); callers `await` it. Cancelling the calling task aborts the transfer.
    ///
    /// ```swift
    /// let transport = CurlTransport(maximumConnections: 8)
    /// let response = try await transport.send(
    ///     HTTPRequest(method: "GET", url: "http://127.0.0.1:8000/"), timeouts: HTTPTimeouts())
    /// ```
    public final class CurlTransport: HTTPTransport {
        private let pool: CurlWorkerPool
        private let caBundle: String?

        /// Creates a transport.
        ///
        /// - Parameters:
        ///   - maximumConnections: How many transfers run at once (each on its own thread and
        ///     connection); further requests wait their turn. Default 16.
        ///   - caBundle: A PEM file of CA certificates trusted instead of the system's store
        ///     (libcurl's `CURLOPT_CAINFO`); `nil` keeps the system's.
        public init(maximumConnections: Int = 16, caBundle: String? = nil) {
            CurlEasy.initializeLibraryOnce()
            pool = CurlWorkerPool(maximumThreads: maximumConnections)
            self.caBundle = caBundle
        }

        /// Sends one request on a pool thread.
        ///
        /// - Parameters:
        ///   - request: The request.
        ///   - timeouts: Connect and whole-request limits.
        /// - Returns: The response, whatever its status.
        /// - Throws: ``TransportError`` when no response arrived, `CancellationError` when the task
        ///   was cancelled.
        public func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            let cancellation = CancellationFlag()
            let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    pool.submit { [caBundle] easy in
                        let result: Result<HTTPResponse, TransportError>
                        if cancellation.isCancelled {
                            result = .failure(TransportError(.other, "cancelled"))
                        } else if let easy {
                            result = easy.perform(request, timeouts: timeouts, caBundle: caBundle, cancellation: cancellation)
                        } else {
                            result = .failure(TransportError(.other, CurlEasy.unavailableReason))
                        }
                        return { continuation.resume(returning: result) }
                    }
                }
            } onCancel: {
                cancellation.cancel()
            }
            if cancellation.isCancelled { throw CancellationError() }
            return try result.get()
        }
    }
#endif
