import AWSSigV4
#if canImport(CCurl)
    import CCurl

    /// Collects one response's headers and body from libcurl's callbacks.
    ///
    /// Only the worker thread that performs the transfer touches it, while the transfer runs.
    final class ResponseSink {
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        let cancellation: CancellationFlag

        init(cancellation: CancellationFlag) {
            self.cancellation = cancellation
        }

        /// Records one raw header line. A status line starts a new header block (after a
        /// `100 Continue` or a proxy's `CONNECT` answer), so earlier fields are dropped.
        func headerLine(_ bytes: UnsafeBufferPointer<UInt8>) {
            let line = String(decoding: bytes, as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                headers.removeAll()
                return
            }
            guard let colon = line.firstIndex(of: ":") else { return }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingASCIIWhitespace()
            headers[name] = value
        }
    }

    /// `CURLOPT_WRITEFUNCTION`: appends body bytes to the ``ResponseSink``.
    let curlWriteBody: curl_write_callback = { data, size, count, context in
        let total = size * count
        guard let data, let context, total > 0 else { return total }
        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: total) { bytes in
            sink.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: total))
        }
        return total
    }

    /// `CURLOPT_HEADERFUNCTION`: hands each header line to the ``ResponseSink``.
    let curlWriteHeader: curl_write_callback = { data, size, count, context in
        let total = size * count
        guard let data, let context, total > 0 else { return total }
        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: total) { bytes in
            sink.headerLine(UnsafeBufferPointer(start: bytes, count: total))
        }
        return total
    }

    /// `CURLOPT_XFERINFOFUNCTION`: a non-zero return aborts the transfer once the task is cancelled.
    let curlCheckCancellation: curl_xferinfo_callback = { context, _, _, _, _ in
        guard let context else { return 0 }
        let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
        return sink.cancellation.isCancelled ? 1 : 0
    }
#endif
