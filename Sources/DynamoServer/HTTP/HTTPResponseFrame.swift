import NIOCore
import NIOHTTP1

/// One response as the bytes that go on the wire: status line, headers and body in one buffer,
/// sent with one write and one flush.
///
/// NIO's `HTTPResponseEncoder` took three pipeline writes (`.head`, `.body`, `.end`), each
/// through every outbound handler, and an `HTTPHeaders` value per answer: about a fifth of a
/// GetItem's instructions. Header names and values here are ours (fixed or generated), so they
/// need no validation.
///
/// ```swift
/// var frame = HTTPResponseFrame(version: .http1_1, status: .ok, allocator: allocator, bodyCount: body.count)
/// frame.header("Content-Type", "application/x-amz-json-1.0")
/// frame.header("Content-Length", body.count)
/// frame.finish(body: body)
/// channel.writeAndFlush(frame.buffer, promise: nil)
/// ```
struct HTTPResponseFrame {
    private(set) var buffer: ByteBuffer

    /// Starts a response with its status line; `bodyCount` sizes the buffer.
    init(version: HTTPVersion, status: HTTPResponseStatus, allocator: ByteBufferAllocator, bodyCount: Int) {
        buffer = allocator.buffer(capacity: bodyCount + 384)
        Self.writeStatusLine(version: version, status: status, into: &buffer)
    }

    /// Appends `name: value`.
    mutating func header(_ name: String, _ value: String) {
        buffer.writeString(name)
        buffer.writeStaticString(": ")
        buffer.writeString(value)
        buffer.writeStaticString("\r\n")
    }

    /// Appends `name: value` for a decimal number.
    mutating func header(_ name: String, _ value: some BinaryInteger) {
        buffer.writeString(name)
        buffer.writeStaticString(": ")
        Self.writeDecimal(UInt64(value), into: &buffer)
        buffer.writeStaticString("\r\n")
    }

    /// Ends the headers and appends the body (`nil`: none, as for a `HEAD` request).
    mutating func finish(body: [UInt8]?) {
        buffer.writeStaticString("\r\n")
        if let body { buffer.writeBytes(body) }
    }

    /// `HTTP/1.1 100 Continue`, for a request that sent `Expect: 100-continue`.
    static func continueResponse(version: HTTPVersion, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 32)
        writeStatusLine(version: version, status: .continue, into: &buffer)
        buffer.writeStaticString("\r\n")
        return buffer
    }

    /// The answer to malformed HTTP (what NIO's `HTTPServerProtocolErrorHandler` sent): 400, empty,
    /// and the connection closes.
    static func badRequest(allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 80)
        buffer.writeStaticString("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        return buffer
    }

    private static func writeStatusLine(version: HTTPVersion, status: HTTPResponseStatus, into buffer: inout ByteBuffer) {
        if version.major == 1, version.minor == 1 {
            buffer.writeStaticString("HTTP/1.1 ")
        } else {
            buffer.writeStaticString("HTTP/")
            writeDecimal(UInt64(max(version.major, 0)), into: &buffer)
            buffer.writeStaticString(".")
            writeDecimal(UInt64(max(version.minor, 0)), into: &buffer)
            buffer.writeStaticString(" ")
        }
        if status == .ok {
            buffer.writeStaticString("200 OK\r\n")
            return
        }
        writeDecimal(UInt64(status.code), into: &buffer)
        buffer.writeStaticString(" ")
        buffer.writeString(status.reasonPhrase)
        buffer.writeStaticString("\r\n")
    }

    /// Writes `value` in decimal without building a `String`.
    static func writeDecimal(_ value: UInt64, into buffer: inout ByteBuffer) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var rest = value
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: scratch[start...]))
        }
    }
}
