@testable import DynamoServer
import NIOCore
import NIOHTTP1
import Testing

@Suite("HTTPResponseFrame")
struct HTTPResponseFrameTests {
    private func text(_ buffer: ByteBuffer) -> String { String(buffer: buffer) }

    @Test("status line, headers and body in one buffer")
    func framesOneResponse() {
        var frame = HTTPResponseFrame(version: .http1_1, status: .ok, allocator: ByteBufferAllocator(), bodyCount: 2)
        frame.header("Content-Type", "application/x-amz-json-1.0")
        frame.header("Content-Length", 2)
        frame.finish(body: Array("{}".utf8))
        #expect(text(frame.buffer) == "HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\n\r\n{}")
    }

    @Test("other statuses and versions are spelled as NIO's encoder spelled them")
    func statusLines() {
        var frame = HTTPResponseFrame(version: .http1_0, status: .payloadTooLarge, allocator: ByteBufferAllocator(), bodyCount: 0)
        frame.finish(body: nil)
        #expect(text(frame.buffer) == "HTTP/1.0 413 Payload Too Large\r\n\r\n")
        let interim = HTTPResponseFrame.continueResponse(version: .http1_1, allocator: ByteBufferAllocator())
        #expect(text(interim) == "HTTP/1.1 100 Continue\r\n\r\n")
    }

    /// Seeded random numbers, including the extremes: the decimal writer agrees with `String`.
    @Test("decimal numbers", arguments: [UInt64(3), 99, 2026])
    func decimals(seed: UInt64) {
        var state = seed
        var values: [UInt64] = [0, 1, 9, 10, UInt64(UInt32.max), UInt64.max]
        for _ in 0..<200 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            values.append(state >> (state % 64))
        }
        for value in values {
            var buffer = ByteBufferAllocator().buffer(capacity: 20)
            HTTPResponseFrame.writeDecimal(value, into: &buffer)
            #expect(String(buffer: buffer) == String(value))
        }
    }
}
