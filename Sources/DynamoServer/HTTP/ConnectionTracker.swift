import Logging
import NIOCore

/// Sits on the listening channel and remembers every accepted connection until it closes, so a
/// graceful shutdown can ask each of them to quiesce and wait for them.
///
/// All state lives on the listening channel's event loop (accepted channels pass through
/// `channelRead` there; their close callbacks hop back to it), so no lock is needed. This is the
/// job NIOExtras' `ServerQuiescingHelper` does, kept small.
///
/// It also enforces the connection limit (`serve --max-connections`): a connection accepted
/// while that many are open is closed at once, before it is served, and the ones already open
/// are unaffected. Refusals are logged at most once a second, with their count.
final class ConnectionTracker: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private var connections: [ObjectIdentifier: any Channel] = [:]
    private var quiescing = false
    private var drained: EventLoopPromise<Void>?
    private let maximumConnections: Int?
    private let logger: Logger
    /// Refusals not logged yet, and when the last log line was written.
    private var unreportedRefusals = 0
    private var lastRefusalReport = NIODeadline.uptimeNanoseconds(0)

    /// - Parameters:
    ///   - maximumConnections: the most connections open at once; `nil` for no limit.
    ///   - logger: where refusals are reported.
    init(maximumConnections: Int? = nil, logger: Logger = Logger(label: "localdynamo.http", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.maximumConnections = maximumConnections
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let channel = Self.unwrapInboundIn(data)
        if quiescing {
            // Accepted in the instant before the listener closed: never served, just closed.
            channel.close(promise: nil)
            return
        }
        if let maximumConnections, connections.count >= maximumConnections {
            refuse(channel, limit: maximumConnections)
            return
        }
        let id = ObjectIdentifier(channel)
        connections[id] = channel
        let loop = context.eventLoop
        let tracker = NIOLoopBound(self, eventLoop: loop)
        channel.closeFuture.whenComplete { _ in
            loop.execute { tracker.value.remove(id) }
        }
        context.fireChannelRead(data)
    }

    /// Closes a connection over the limit (NIO has not registered it yet: it never reads).
    private func refuse(_ channel: any Channel, limit: Int) {
        channel.close(promise: nil)
        unreportedRefusals += 1
        let now = NIODeadline.now()
        if now - lastRefusalReport >= .seconds(1) {
            logger.warning(
                "refused connections over the limit",
                metadata: [
                    "refused": "\(unreportedRefusals)", "max-connections": "\(limit)",
                ])
            unreportedRefusals = 0
            lastRefusalReport = now
        }
    }

    private func remove(_ id: ObjectIdentifier) {
        connections[id] = nil
        if connections.isEmpty, let drained {
            self.drained = nil
            drained.succeed()
        }
    }

    /// Stops tracking new connections (they are closed), tells each open one to quiesce (idle
    /// keep-alive connections close at once, busy ones after their current answer) and returns
    /// a future that succeeds when all are closed. Must be called on the listener's event loop.
    func quiesce(on loop: any EventLoop) -> EventLoopFuture<Void> {
        quiescing = true
        if connections.isEmpty { return loop.makeSucceededVoidFuture() }
        let promise = drained ?? loop.makePromise(of: Void.self)
        drained = promise
        for channel in connections.values {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        return promise.futureResult
    }

    /// Closes every connection still open (after the grace period). Must be called on the
    /// listener's event loop.
    func closeAll() {
        for channel in connections.values {
            channel.close(promise: nil)
        }
    }
}
