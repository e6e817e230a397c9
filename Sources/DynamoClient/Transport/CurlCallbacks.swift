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
        ///
        /// Split, lowercased and trimmed on the bytes: only the name and the value become strings.
        func headerLine(_ bytes: UnsafeBufferPointer<UInt8>) {
            if bytes.starts(with: "HTTP/".utf8) {
                headers.removeAll(keepingCapacity: true)
                return
            }
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
            let name = String(unsafeUninitializedCapacity: colon) { buffer in
                for index in 0..<colon {
                    let byte = bytes[index]
                    buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
                return colon
            }
            var start = colon + 1
            var end = bytes.count
            while start < end, Self.isWhitespace(bytes[start]) { start += 1 }
            while end > start, Self.isWhitespace(bytes[end - 1]) { end -= 1 }
            headers[name] = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        /// Space, tab, CR or LF.
        private static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
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
