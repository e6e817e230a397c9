import DynamoEngine
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// The HTTP/1.1 front end: DynamoDB-shaped requests in, DynamoDB-shaped responses out.
///
/// Built directly on NIO's HTTP/1.1 request decoder (no framework): per connection, the
/// timeouts, NIO's decoder, then our `HTTPRequestHandler`, which answers one request at a time
/// (pipelined requests in order), frames each answer into one buffer and answers malformed HTTP
/// 400. The wire checks are `WireProtocol`'s; the operations are the
/// dispatcher's. Keep-alive is the default, `Connection: close` is honoured, chunked request
/// bodies are accepted, `Expect: 100-continue` is answered.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0), dispatcher: dispatcher, logger: logger)
/// let port = try await server.start()
/// // … serve …
/// await server.shutdown()
/// ```
package actor HTTPServer {
    /// How the server listens and what it accepts.
    package struct Configuration: Sendable {
        /// The address to bind, e.g. `127.0.0.1` or `0.0.0.0`.
        package var host: String
        /// The port to bind; `0` picks a free one (``HTTPServer/start()`` returns it).
        package var port: Int
        /// The largest request body accepted; larger ones are answered 413 with an empty body and
        /// the connection is closed. Default 16 MiB, DynamoDB's request size limit.
        package var maximumRequestBodyBytes: Int
        /// How long ``HTTPServer/shutdown()`` waits for in-flight requests before closing their
        /// connections anyway.
        package var shutdownGracePeriod: Duration
        /// Bodies up to this size are checked (JSON parsed) on the event loop; larger ones, and
        /// compressed ones, on NIO's thread pool (`NIOThreadPool.singleton`), never on the global
        /// concurrency pool, which a process embedding the server may keep busy.
        package var inlineBodyBytes: Int
        /// Verifies every request's SigV4 signature (`--require-auth`); `nil` checks the
        /// `Authorization` header's shape only.
        package var authenticator: RequestAuthenticator? = nil
        /// The event loops to serve on; `nil` uses NIO's shared `MultiThreadedEventLoopGroup.singleton`
        /// (one loop per core). The server never shuts a group down.
        package var eventLoopGroup: (any EventLoopGroup)?
        /// Which origins get CORS headers (DynamoDB Local's `-cors`).
        package var cors: CORSPolicy = .anyOrigin
        /// Counts requests and connections for `/metrics`; `nil` counts nothing.
        package var metrics: ServerMetrics?
        /// How long a request may take to arrive and a keep-alive connection may idle
        /// (see ``ConnectionTimeouts``).
        package var timeouts: ConnectionTimeouts = .standard
        /// The most connections open at once; one accepted beyond it is closed at once. `nil`:
        /// no limit but the process's file descriptors.
        package var maximumConnections: Int? = 10_000

        package init(
            host: String = "127.0.0.1",
            port: Int = 8000,
            maximumRequestBodyBytes: Int = 16 * 1024 * 1024,
            shutdownGracePeriod: Duration = .seconds(30),
            inlineBodyBytes: Int = 64 * 1024,
            eventLoopGroup: (any EventLoopGroup)? = nil,
            cors: CORSPolicy = .anyOrigin
        ) {
            self.host = host
            self.port = port
            self.maximumRequestBodyBytes = maximumRequestBodyBytes
            self.shutdownGracePeriod = shutdownGracePeriod
            self.inlineBodyBytes = inlineBodyBytes
            self.eventLoopGroup = eventLoopGroup
            self.cors = cors
        }
    }

    /// Raised by ``start()`` when called twice.
    package struct AlreadyStartedError: Error {}

    package nonisolated let configuration: Configuration
    private nonisolated let dispatcher: any DynamoDispatcher
    private nonisolated let admin: AdminRouter?
    private nonisolated let clock: ServerClock
    private nonisolated let logger: Logger
    private var listener: (any Channel)?
    private var tracker: NIOLoopBound<ConnectionTracker>?
    private var started = false
    /// `shutdown()` was called while `start()` was still binding.
    private var stopRequested = false

    /// The address the server listens on, once started.
    package private(set) var localAddress: SocketAddress?

    /// - Parameters:
    ///   - configuration: where to listen and what to accept.
    ///   - dispatcher: runs the operations.
    ///   - admin: answers `/_localdynamo/…` (the admin API); `nil` serves none.
    ///   - clock: the server's clock, for the `Date` header of every answer.
    ///   - logger: gets one debug line per request (operation, status, duration, request id;
    ///     never credentials or bodies). The default discards everything.
    package init(
        configuration: Configuration,
        dispatcher: any DynamoDispatcher,
        admin: AdminRouter? = nil,
        clock: ServerClock = ServerClock(),
        logger: Logger = Logger(label: "localdynamo.http", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        self.dispatcher = dispatcher
        self.admin = admin
        self.clock = clock
        self.logger = logger
    }

    /// What every connection's handler shares, and what the in-process front end
    /// (``InProcessFrontEnd``) answers with: the same dispatcher, admin API, limits and checks.
    nonisolated var handlerSettings: HTTPHandlerSettings {
        HTTPHandlerSettings(
            dispatcher: dispatcher,
            logger: logger,
            maximumRequestBodyBytes: configuration.maximumRequestBodyBytes,
            inlineBodyBytes: configuration.inlineBodyBytes,
            cors: configuration.cors,
            admin: admin,
            clock: clock,
            metrics: configuration.metrics,
            authenticator: configuration.authenticator
        )
    }

    /// Binds and starts accepting connections.
    /// - Returns: the bound port (the chosen one when the configuration says `0`).
    /// - Throws: when the address cannot be bound, when the server was already started, or
    ///   `CancellationError` when ``shutdown()`` was called while binding.
    @discardableResult
    package func start() async throws -> Int {
        guard !started else { throw AlreadyStartedError() }
        started = true
        let settings = handlerSettings
        let group = configuration.eventLoopGroup ?? MultiThreadedEventLoopGroup.singleton
        let listenerLoop = group.next()
        // The child pipeline's generic handler type, its metadata and its conformance checks
        // resolved here, once, before any connection: a 2,000-connection burst at start once
        // crashed an event loop inside the Swift runtime's first instantiation of this type
        // (`swift_conformsToProtocol` on a null metadata, in `childChannelInitializer`) while
        // other loops did the same; resolved beforehand, the loops only read the cache.
        _ = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes))
        let (limit, logger) = (configuration.maximumConnections, self.logger)
        let tracker = try await listenerLoop.submit {
            NIOLoopBound(ConnectionTracker(maximumConnections: limit, logger: logger), eventLoop: listenerLoop)
        }.get()
        let timeouts = configuration.timeouts
        let channel = try await ServerBootstrap(group: listenerLoop, childGroup: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(tracker.value)
                }
            }
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    let deadlines = ConnectionTimeoutHandler(timeouts: timeouts, logger: logger)
                    try pipeline.addHandler(deadlines)
                    try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try pipeline.addHandler(
                        HTTPRequestHandler(
                            settings: settings, eventLoop: channel.eventLoop,
                            deadlines: deadlines))
                }
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
        if stopRequested {
            try? await channel.close()
            throw CancellationError()
        }
        self.listener = channel
        self.tracker = tracker
        self.localAddress = channel.localAddress
        let port = channel.localAddress?.port ?? configuration.port
        logger.info("listening", metadata: ["host": "\(configuration.host)", "port": "\(port)"])
        return port
    }

    /// The bound port, once started.
    package var port: Int? { localAddress?.port }

    /// Stops gracefully: stops accepting, closes idle keep-alive connections, lets in-flight
    /// requests finish (each such connection closes after its answer, which says
    /// `Connection: close`), and returns when every connection is closed, or after
    /// ``Configuration/shutdownGracePeriod``, when the rest are closed forcibly. Calling it again,
    /// or before ``start()``, does nothing.
    package func shutdown() async {
        guard let listener, let tracker else {
            stopRequested = started
            return
        }
        self.listener = nil
        self.tracker = nil
        try? await listener.close()
        let loop = tracker.eventLoop
        let grace = configuration.shutdownGracePeriod
        let drained = try? await loop.flatSubmit {
            tracker.value.quiesce(on: loop).withTimeout(grace, on: loop)
        }.get()
        if drained != true {
            logger.warning("closing connections still busy after the shutdown grace period")
            try? await loop.submit { tracker.value.closeAll() }.get()
        }
        logger.info("stopped")
    }
}

extension EventLoopFuture where Value == Void {
    /// `true` when this future completes within `duration`, `false` when it does not. Call on
    /// `loop`, with a future of `loop`.
    fileprivate func withTimeout(_ duration: Duration, on loop: any EventLoop) -> EventLoopFuture<Bool> {
        let promise = loop.makePromise(of: Bool.self)
        let settled = NIOLoopBoundBox(false, eventLoop: loop)
        let (seconds, attoseconds) = duration.components
        let timeout = loop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
            guard !settled.value else { return }
            settled.value = true
            promise.succeed(false)
        }
        self.whenComplete { _ in
            timeout.cancel()
            guard !settled.value else { return }
            settled.value = true
            promise.succeed(true)
        }
        return promise.futureResult
    }
}
