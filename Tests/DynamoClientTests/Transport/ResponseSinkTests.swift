#if canImport(CCurl)
    import Testing
    @testable import DynamoClient

    /// libcurl hands ``ResponseSink`` one raw header line at a time; it keeps lowercased names
    /// and trimmed values, and a new status line starts the header block over.
    struct ResponseSinkTests {
        private func feed(_ lines: [String], to sink: ResponseSink) {
            for line in lines {
                Array(line.utf8).withUnsafeBufferPointer { sink.headerLine($0) }
            }
        }

        @Test func namesAreLoweredAndValuesTrimmed() {
            let sink = ResponseSink(cancellation: CancellationFlag())
            feed(
                [
                    "HTTP/1.1 200 OK\r\n", "Content-Type: application/x-amz-json-1.0\r\n",
                    "X-Amzn-RequestId: \t abc def \t\r\n", "x-amz-crc32:123\r\n", "X-Empty:   \r\n",
                    "no colon here\r\n", "\r\n",
                ], to: sink)
            #expect(
                sink.headers == [
                    "content-type": "application/x-amz-json-1.0", "x-amzn-requestid": "abc def",
                    "x-amz-crc32": "123", "x-empty": "",
                ])
        }

        @Test func aStatusLineStartsANewBlock() {
            let sink = ResponseSink(cancellation: CancellationFlag())
            feed(
                ["HTTP/1.1 100 Continue\r\n", "X-Early: 1\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "Content-Length: 2\r\n"],
                to: sink)
            #expect(sink.headers == ["content-length": "2"])
        }

        @Test func theResponseKeepsTheLoweredNames() {
            let response = HTTPResponse(status: 200, lowercasedHeaders: ["x-amz-crc32": "1"], body: [])
            #expect(response.header("X-Amz-CRC32") == "1")
        }
    }
#endif
