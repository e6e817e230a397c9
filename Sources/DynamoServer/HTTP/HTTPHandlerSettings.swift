import DynamoEngine
import Logging
import NIOPosix

/// What every connection's handler shares: the dispatcher, the limits and the services.
struct HTTPHandlerSettings: Sendable {
    /// Runs the DynamoDB operations.
    var dispatcher: any DynamoDispatcher
    /// Gets the debug request log and the connection errors.
    var logger: Logger
    /// The largest request body accepted; larger ones are answered 413.
    var maximumRequestBodyBytes: Int
    /// Requests whose body is at most this size are checked on the event loop (see
    /// `EventLoopTaskExecutor`); larger ones are inflated and parsed on `parsingPool`, so a
    /// 16 MiB `BatchWriteItem` never stalls the other connections of its loop.
    var inlineBodyBytes: Int
    /// Where bodies above `inlineBodyBytes` are inflated and parsed.
    var parsingPool: NIOThreadPool = .singleton
    /// Which origins get CORS headers.
    var cors: CORSPolicy = .anyOrigin
    /// Answers `/_localdynamo/…`; `nil` leaves those paths to the DynamoDB protocol checks.
    var admin: AdminRouter? = nil
    /// The server's clock, for the `Date` header.
    var clock = ServerClock()
    /// Counts requests and connections for `/metrics`; `nil` counts nothing.
    var metrics: ServerMetrics? = nil
    /// Verifies signatures (`--require-auth`); `nil` checks only the `Authorization` header's shape.
    var authenticator: RequestAuthenticator? = nil
}
