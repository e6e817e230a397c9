// The ceiling for scripts/bench: a bare SwiftNIO HTTP/1.1 server that answers every request with
// the same 250-byte DynamoDB-shaped JSON body (a GetItem answer) and the headers DynamoDB sends.
//
// It uses the HTTP stack LocalDynamo serves on (NIO's HTTP/1.1 codec, its pipelining and error
// handlers, the same channel options and one event loop per core) and does no work at all per
// request, so what it reaches is what the machine allows an NIO server; scripts/bench reports
// LocalDynamo's numbers as a share of it.
//
//     ceiling-server [--host 127.0.0.1] [--port 8000]
//
// Prints `ceiling-server listening on http://HOST:PORT` once bound; runs until killed.

import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Answers each request once its `.end` arrives; ignores heads and bodies otherwise.
final class FixedResponseHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The fixed answer: 250 bytes, shaped like a GetItem output.
    static let responseBody =
        #"{"Item":{"pk":{"S":"p00000123"},"sk":{"N":"7"},"data":{"S":"abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"},"n":{"N":"123456"}}}"#
    private var body: ByteBuffer?
    private var headers = HTTPHeaders()
    private var keepAlive = true
    private var version = HTTPVersion.http1_1

    func handlerAdded(context: ChannelHandlerContext) {
        body = context.channel.allocator.buffer(string: Self.responseBody)
        headers.add(name: "x-amzn-RequestId", value: "BENCHBENCHBENCHBENCHBENCHBENCHBENCHBENCHBENCHBENCH00")
        headers.add(name: "x-amz-crc32", value: "3199961600")
        headers.add(name: "Content-Type", value: "application/x-amz-json-1.0")
        headers.add(name: "Content-Length", value: String(Self.responseBody.utf8.count))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
            version = head.version
        case .body:
            break
        case .end:
            var responseHeaders = headers
            if !keepAlive { responseHeaders.add(name: "Connection", value: "close") }
            context.write(
                Self.wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .ok, headers: responseHeaders))),
                promise: nil)
            context.write(Self.wrapOutboundOut(.body(.byteBuffer(body!))), promise: nil)
            if keepAlive {
                context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                let loopBound = context.loopBound
                context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).whenComplete { _ in
                    loopBound.value.close(promise: nil)
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Writes `line` and a newline to a file descriptor, unbuffered (a parent reading the pipe sees it
/// at once).
func writeLine(_ line: String, to descriptor: Int32) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) }
}

var host = "127.0.0.1"
var port = 8000
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--host":
        host = arguments.popFirst() ?? host
    case "--port":
        port = arguments.popFirst().flatMap { Int($0) } ?? port
    default:
        writeLine("usage: ceiling-server [--host 127.0.0.1] [--port 8000]", to: 2)
        exit(2)
    }
}

let group = MultiThreadedEventLoopGroup.singleton
let channel = try ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 1024)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelOption(.maxMessagesPerRead, value: 16)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: true,
                withErrorHandling: true,
                withOutboundHeaderValidation: false
            )
            try pipeline.addHandler(FixedResponseHandler())
        }
    }
    .bind(host: host, port: port)
    .wait()

writeLine("ceiling-server listening on http://\(host):\(channel.localAddress?.port ?? port)", to: 1)
try channel.closeFuture.wait()
