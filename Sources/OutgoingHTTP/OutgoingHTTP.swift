import AWSSigV4
#if canImport(CCurl)
    import CCurl
#endif

/// The answer to an outgoing request: status, headers (names lowercased) and body.
package struct OutgoingResponse: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: [UInt8]
}

/// Why a request got no answer (no connection, timeout, a malformed URL …).
package struct OutgoingHTTPError: Error, Sendable, CustomStringConvertible {
    package var description: String
}

/// The server's blocking HTTP caller over libcurl: the calling thread waits for the answer, so
/// callers run it on their own threads (the export/import job queue, the Kinesis delivery
/// thread), never on an event loop. Each call uses a fresh easy handle (these calls are few and
/// large; the client's pooled transport is for the many small ones).
package enum OutgoingHTTP {
    /// Sends `request` (signed or not) and waits at most `timeoutSeconds` for the whole exchange.
    package static func perform(
        _ request: SigV4Request,
        timeoutSeconds: Int = 60
    ) -> Result<OutgoingResponse, OutgoingHTTPError> {
        #if canImport(CCurl)
            guard !request.url.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 }),
                !request.headers.contains(where: { ($0.name + $0.value).utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 }) })
            else { return .failure(OutgoingHTTPError(description: "the request contains CR, LF or NUL; not sent")) }
            if !globalInitialization, let reason = ld_curl_load_error() {
                return .failure(OutgoingHTTPError(description: "libcurl could not be loaded: \(String(cString: reason))"))
            }
            guard let handle = ld_curl_easy_init() else {
                return .failure(OutgoingHTTPError(description: "libcurl cannot allocate a handle"))
            }
            defer { ld_curl_easy_cleanup(handle) }
            var list: UnsafeMutablePointer<curl_slist>? = nil
            for header in request.headers {
                list = ld_curl_slist_append(list, header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
            }
            // No `Expect: 100-continue` round trip, and no form content type that libcurl would add
            // to a body sent without one (servers then parse the body as a form and lose it).
            list = ld_curl_slist_append(list, "Expect:")
            if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                list = ld_curl_slist_append(list, "Content-Type:")
            }
            defer { ld_curl_slist_free_all(list) }
            let collector = Collector()
            let context = Unmanaged.passUnretained(collector).toOpaque()
            var code = CURLE_OK
            let options: [() -> CURLcode] = [
                { ld_curl_easy_setopt_string(handle, CURLOPT_URL, request.url) },
                { ld_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1) },
                { ld_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, 5000) },
                { ld_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutSeconds * 1000) },
                { ld_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list) },
                { ld_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, collectBody) },
                { ld_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context) },
                { ld_curl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, collectHeader) },
                { ld_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context) },
                {
                    switch request.method {
                    case "GET": ld_curl_easy_setopt_long(handle, CURLOPT_HTTPGET, 1)
                    case "HEAD": ld_curl_easy_setopt_long(handle, CURLOPT_NOBODY, 1)
                    default: ld_curl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
                    }
                },
            ]
            for option in options where code == CURLE_OK { code = option() }
            let body = request.body.isEmpty ? [0] : request.body
            if code == CURLE_OK {
                code = withExtendedLifetime(collector) {
                    body.withUnsafeBufferPointer { bytes in
                        guard request.method != "GET", request.method != "HEAD" else { return ld_curl_easy_perform(handle) }
                        var status = ld_curl_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
                        if status == CURLE_OK {
                            status = ld_curl_easy_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                        }
                        return status == CURLE_OK ? ld_curl_easy_perform(handle) : status
                    }
                }
            }
            guard code == CURLE_OK else {
                return .failure(OutgoingHTTPError(description: String(cString: ld_curl_easy_strerror(code))))
            }
            var status = 0
            _ = ld_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            return .success(OutgoingResponse(status: status, headers: collector.headers, body: collector.body))
        #else
            return .failure(OutgoingHTTPError(description: "outgoing HTTP needs libcurl, which this platform build does not link"))
        #endif
    }

    #if canImport(CCurl)
        private static let globalInitialization: Bool = ld_curl_global_init_default() == CURLE_OK
    #endif
}

#if canImport(CCurl)
    /// What libcurl's callbacks collect for one transfer (touched by the calling thread only).
    private final class Collector {
        var headers: [String: String] = [:]
        var body: [UInt8] = []
    }

    private let collectBody: curl_write_callback = { data, size, count, context in
        let total = size * count
        guard let data, let context, total > 0 else { return total }
        let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: total) {
            collector.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: total))
        }
        return total
    }

    private let collectHeader: curl_write_callback = { data, size, count, context in
        let total = size * count
        guard let data, let context, total > 0 else { return total }
        let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
        let line = data.withMemoryRebound(to: UInt8.self, capacity: total) {
            String(decoding: UnsafeBufferPointer(start: $0, count: total), as: UTF8.self)
        }
        if line.hasPrefix("HTTP/") {
            collector.headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            collector.headers[line[..<colon].lowercased()] = String(value.reversed().drop { $0.isWhitespace }.reversed())
        }
        return total
    }
#endif
