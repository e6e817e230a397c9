import Logging
import NIOCore

/// How long a connection may take to send a request, and how long it may sit idle between
/// requests (`serve --request-timeout`, `--idle-timeout`).
package struct ConnectionTimeouts: Sendable, Equatable {
    /// From the first byte of a request to the end of its body; a request still incomplete then
    /// (a slowloris client, a stalled upload) has its connection closed. `nil`: no limit.
    package var request: TimeAmount?
    /// From the end of an answer (or the accept) to the first byte of the next request; a
    /// keep-alive connection idle that long is closed. `nil`: no limit.
    package var idle: TimeAmount?

    /// Defaults in line with common servers: 60 seconds to send a request (nginx's
    /// `client_header_timeout`/`client_body_timeout`) and 120 seconds of keep-alive idleness,
    /// longer than the AWS SDKs keep an idle pooled connection (60 s in the Java SDK), so the
    /// client, not the server, closes an idle connection and never sends on one being closed.
    package static let standard = ConnectionTimeouts(request: .seconds(60), idle: .seconds(120))

    package init(request: TimeAmount?, idle: TimeAmount?) {
        self.request = request
        self.idle = idle
    }

    /// A number of seconds from the command line as a timeout; `0` or less means none.
    package static func seconds(_ value: Double) -> TimeAmount? {
        value > 0 ? .nanoseconds(Int64((value * 1_000_000_000).rounded())) : nil
    }
}

/// The first handler of a connection's pipeline: sees every received byte and closes the
/// connection when a request takes longer than ``ConnectionTimeouts/request`` to arrive or the
/// connection idles longer than ``ConnectionTimeouts/idle`` between requests. While an answer is
/// being prepared no limit runs (a long Scan is the server's time, not the client's).
///
/// The request boundaries come from the connection's `HTTPRequestHandler`, which reports each
/// complete request and each written answer.
/// One timer per connection: a phase change only moves the deadline; the timer, when it fires
/// early, re-arms itself for what is left, so a busy keep-alive connection schedules no task per
/// request. All state lives on the channel's event loop.
final class ConnectionTimeoutHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum Phase {
        /// Waiting for the first byte of a request.
        case idle
        /// A request has started arriving and is not complete yet.
        case reading
        /// A complete request is being answered.
        case busy
    }

    private let timeouts: ConnectionTimeouts
    private let logger: Logger
    private var phase = Phase.idle
    private var deadline = NIODeadline.distantFuture
    /// Bytes of a next (pipelined) request arrived while the current one was answered.
    private var bytesWhileBusy = false
    private var timer: Scheduled<Void>?
    /// When `timer` fires.
    private var timerDeadline = NIODeadline.distantFuture
    private var context: ChannelHandlerContext?

    init(timeouts: ConnectionTimeouts, logger: Logger) {
        self.timeouts = timeouts
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        enter(.idle, now: .now())
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .idle: enter(.reading, now: .now())
        case .busy: bytesWhileBusy = true
        case .reading: break
        }
        context.fireChannelRead(data)
    }

    /// A whole request (head, body, end) has been decoded.
    func requestCompleted() {
        if phase == .reading { enter(.busy, now: nil) }
    }

    /// An answer's end was written. An answer written before its request was complete (a 413
    /// sent while the body is drained) leaves the request's deadline running.
    func responseWritten() {
        guard phase == .busy else { return }
        let pipelined = bytesWhileBusy
        bytesWhileBusy = false
        enter(pipelined ? .reading : .idle, now: .now())
    }

    private func enter(_ next: Phase, now: NIODeadline?) {
        phase = next
        let limit: TimeAmount? =
            switch next {
            case .idle: timeouts.idle
            case .reading: timeouts.request
            case .busy: nil
            }
        if let limit, let now {
            deadline = now + limit
            if timer == nil || deadline < timerDeadline {
                // Sooner than the armed timer (a request limit shorter than the idle one).
                timer?.cancel()
                arm(at: deadline)
            }
        } else {
            deadline = .distantFuture
        }
    }

    private func arm(at time: NIODeadline) {
        guard let context else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        timerDeadline = time
        timer = context.eventLoop.scheduleTask(deadline: time) { handler.value.timerFired() }
    }

    private func timerFired() {
        timer = nil
        guard let context, context.channel.isActive else { return }
        let now = NIODeadline.now()
        if deadline > now {
            // Moved since the timer was set; a busy connection checks back after the shortest limit.
            let recheck = [timeouts.idle, timeouts.request].compactMap { $0 }.min() ?? .seconds(60)
            arm(at: deadline == .distantFuture ? now + recheck : deadline)
            return
        }
        let reason = phase == .reading ? "request not complete within the request timeout" : "idle timeout"
        logger.debug(
            "closing connection",
            metadata: [
                "reason": "\(reason)",
                "peer": "\(context.channel.remoteAddress?.description ?? "?")",
            ])
        context.close(promise: nil)
    }
}
