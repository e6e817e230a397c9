#if canImport(CCurl)
    import CCurl

    /// One libcurl easy handle and the connection it keeps alive between requests.
    ///
    /// An easy handle is used by one thread at a time: each ``CurlWorkerPool`` thread owns one and
    /// performs its requests on it, so a thread's connection is reused for its next request to the
    /// same host (libcurl's per-handle connection cache). `curl_easy_reset` clears the options of
    /// the previous request but keeps the live connection, DNS and TLS session caches.
    final class CurlEasy {
        private let handle: UnsafeMutableRawPointer
        private let errorBuffer: UnsafeMutablePointer<CChar>

        /// Creates an easy handle, or returns `nil` when libcurl cannot allocate one.
        init?() {
            CurlEasy.initializeLibraryOnce()
            guard let handle = ld_curl_easy_init() else { return nil }
            self.handle = handle
            errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        }

        deinit {
            ld_curl_easy_cleanup(handle)
            errorBuffer.deallocate()
        }

        /// `curl_global_init` must run once before any other call and before threads race.
        static func initializeLibraryOnce() { _ = globalInitialization }
        private static let globalInitialization: Bool = ld_curl_global_init_default() == CURLE_OK

        /// Why no handle could be made: libcurl (loaded on first use) is missing, or it could
        /// not allocate.
        static var unavailableReason: String {
            guard let reason = ld_curl_load_error() else { return "curl_easy_init failed" }
            return "libcurl could not be loaded: \(String(cString: reason))"
        }

        /// Performs one request, blocking the calling thread until it completes or fails.
        ///
        /// - Parameters:
        ///   - request: The request to send.
        ///   - timeouts: Connect and total limits.
        ///   - caBundle: A PEM file of CA certificates to trust instead of the system's store.
        ///   - cancellation: Checked while the transfer runs; set, it aborts the transfer.
        /// - Returns: The response, or the transport failure.
        func perform(
            _ request: HTTPRequest, timeouts: HTTPTimeouts, caBundle: String? = nil, cancellation: CancellationFlag
        ) -> Result<HTTPResponse, TransportError> {
            guard request.url.isSafeHeaderText else {
                return .failure(TransportError(.invalidRequest, "the URL contains CR, LF or NUL; not sent"))
            }
            if let name = request.unsafeHeaderName {
                return .failure(TransportError(.invalidRequest, "header \(name.isSafeHeaderText ? name : "name") contains CR, LF or NUL; not sent"))
            }
            ld_curl_easy_reset(handle)
            errorBuffer[0] = 0
            let sink = ResponseSink(cancellation: cancellation)
            let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
            var headerList: UnsafeMutablePointer<curl_slist>? = nil
            for header in request.headers {
                headerList = ld_curl_slist_append(headerList, header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
            }
            // No `Expect: 100-continue` round trip for larger bodies; no default content type.
            headerList = ld_curl_slist_append(headerList, "Expect:")
            defer { ld_curl_slist_free_all(headerList) }

            var code = configure(request, timeouts: timeouts, headers: headerList, sink: sinkPointer)
            if code == CURLE_OK, let caBundle { code = ld_curl_easy_setopt_string(handle, CURLOPT_CAINFO, caBundle) }
            if code == CURLE_OK {
                // A one-byte stand-in keeps the buffer's address valid for an empty body; the size
                // option, not the buffer, tells libcurl how much to send.
                let bytes = request.body.isEmpty ? [0] : request.body
                code = withExtendedLifetime(sink) {
                    bytes.withUnsafeBufferPointer { body in
                        guard request.method != "GET", request.method != "HEAD" else { return ld_curl_easy_perform(handle) }
                        var status = ld_curl_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
                        if status == CURLE_OK {
                            status = ld_curl_easy_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: body.baseAddress))
                        }
                        return status == CURLE_OK ? ld_curl_easy_perform(handle) : status
                    }
                }
            }
            guard code == CURLE_OK else { return .failure(error(for: code)) }
            var status = 0
            _ = ld_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            return .success(HTTPResponse(status: status, lowercasedHeaders: sink.headers, body: sink.body))
        }

        private func configure(
            _ request: HTTPRequest, timeouts: HTTPTimeouts,
            headers: UnsafeMutablePointer<curl_slist>?, sink: UnsafeMutableRawPointer
        ) -> CURLcode {
            // Each step runs while the previous ones succeeded; non-escaping closures, so nothing
            // is allocated per request.
            var code = CURLE_OK
            func step(_ setOption: () -> CURLcode) {
                if code == CURLE_OK { code = setOption() }
            }
            step { ld_curl_easy_setopt_string(handle, CURLOPT_URL, request.url) }
            step { ld_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer) }
            // Threads: never raise SIGALRM or SIGPIPE for timeouts.
            step { ld_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1) }
            step { ld_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, timeouts.connect.curlMilliseconds) }
            step { ld_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeouts.request.curlMilliseconds) }
            step { ld_curl_easy_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1) }
            step { ld_curl_easy_setopt_long(handle, CURLOPT_TCP_NODELAY, 1) }
            step { ld_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headers) }
            // An empty proxy turns off the proxies libcurl would take from the environment.
            if request.bypassesProxy { step { ld_curl_easy_setopt_string(handle, CURLOPT_PROXY, "") } }
            step { ld_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody) }
            step { ld_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, sink) }
            step { ld_curl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader) }
            step { ld_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, sink) }
            step { ld_curl_easy_setopt_long(handle, CURLOPT_NOPROGRESS, 0) }
            step { ld_curl_easy_setopt_xferinfo_callback(handle, curlCheckCancellation) }
            step { ld_curl_easy_setopt_pointer(handle, CURLOPT_XFERINFODATA, sink) }
            step {
                switch request.method {
                case "GET": ld_curl_easy_setopt_long(handle, CURLOPT_HTTPGET, 1)
                case "HEAD": ld_curl_easy_setopt_long(handle, CURLOPT_NOBODY, 1)
                case "POST": ld_curl_easy_setopt_long(handle, CURLOPT_POST, 1)
                default: ld_curl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
                }
            }
            return code
        }

        private func error(for code: CURLcode) -> TransportError {
            let detail = String(cString: errorBuffer)
            let message = detail.isEmpty ? String(cString: ld_curl_easy_strerror(code)) : detail
            return TransportError(TransportError.kind(of: code), message, curlCode: Int(code.rawValue))
        }
    }

    extension TransportError {
        /// Classifies a libcurl result code.
        static func kind(of code: CURLcode) -> Kind {
            switch code {
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_SSL_CONNECT_ERROR:
                .connectionFailed
            case CURLE_OPERATION_TIMEDOUT:
                .timedOut
            case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
                .connectionLost
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CIPHER:
                .tls
            case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_FUNCTION_ARGUMENT:
                .invalidRequest
            default:
                .other
            }
        }
    }

    extension Duration {
        /// Whole milliseconds for libcurl, at least 1 (0 would mean "no timeout").
        var curlMilliseconds: Int {
            let (seconds, attoseconds) = components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            return Int(max(1, min(milliseconds, Int64(Int32.max))))
        }
    }
#endif
