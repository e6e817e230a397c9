import NIOCore
import NIOHTTP1
import NIOPosix

/// An `http://host[:port][/path]` endpoint that stream records are delivered to.
package struct HTTPEndpoint: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var path: String

    /// Parses `http://host[:port][/path]` (plain HTTP only: the targets are local handlers).
    package init?(_ text: String) {
        guard text.hasPrefix("http://") else { return nil }
        let rest = text.dropFirst("http://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        path = slash == rest.endIndex ? "/" : String(rest[slash...])
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty, parts.count <= 2 else { return nil }
        host = String(name)
        if parts.count == 2 {
            guard let number = Int(parts[1]), (1...65535).contains(number) else { return nil }
            port = number
        } else {
            port = 80
        }
    }
}

/// Posts one JSON body to an endpoint over a fresh HTTP/1.1 connection and reports the status,
/// on NIO's event loops (so no thread blocks while the handler works).
enum HTTPPoster {
    /// - Returns: the response's status code.
    /// - Throws: when the connection fails or closes before a response.
    static func post(
        _ body: [UInt8], to endpoint: HTTPEndpoint, group: any EventLoopGroup,
        timeout: TimeAmount = .seconds(30)
    ) async throws -> Int {
        let promise = group.next().makePromise(of: Int.self)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(StatusHandler(promise: promise))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: endpoint.host, port: endpoint.port).get()
        } catch {
            promise.fail(error)
            throw error
        }
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: endpoint.path)
        head.headers.add(name: "Host", value: "\(endpoint.host):\(endpoint.port)")
        head.headers.add(name: "Content-Type", value: "application/json")
        head.headers.add(name: "Content-Length", value: String(body.count))
        head.headers.add(name: "Connection", value: "close")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        // A handler that never answers: closing the channel fails the promise (channelInactive).
        let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        defer { deadline.cancel() }
        let status = try await promise.futureResult.get()
        try? await channel.close()
        return status
    }

    /// Completes the promise with the response's status once the response has ended.
    private final class StatusHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart
        private let promise: EventLoopPromise<Int>
        private var status: Int?

        init(promise: EventLoopPromise<Int>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): status = Int(head.status.code)
            case .body: break
            case .end:
                promise.succeed(status ?? 0)
                context.close(promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(ChannelError.eof)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.close(promise: nil)
        }
    }
}
