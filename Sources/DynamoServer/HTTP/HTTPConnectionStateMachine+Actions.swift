import NIOCore
import NIOHTTP1

extension HTTPConnectionStateMachine {
    /// What the adapter must do after an event.
    enum Action {
        /// Nothing.
        case none
        /// Pass a held-back `read()` on to the channel.
        case read
        /// Send `100 Continue` (with ``current``'s version): the client waits for it to send the body.
        case sendContinue
        /// The request is complete: answer it, then call ``answerReady()``.
        case dispatch(HTTPRequestHead, RequestHeaderSummary, body: ByteBuffer?)
        /// Answer with a refusal, then call ``answerReady()``.
        case refuse(Refusal)
        /// Malformed HTTP: write a 400 and close once it is written. Nothing else is answered.
        case answerMalformed
        /// Close the connection now.
        case close
    }

    /// An answer the connection gives without dispatching the request.
    enum Refusal: Equatable {
        /// The request target is over ``HTTPReply/maximumRequestTargetBytes``: 400, then close.
        case requestTargetTooLong
        /// The body is over the limit: 413, then close (after draining the body unless the
        /// client waits for `100 Continue`). `target` is the request's `X-Amz-Target`.
        case bodyTooLarge(target: String?)
    }

    /// What the answer to the current request is framed with.
    struct RequestFacts {
        /// The request's HTTP version, repeated in the status line.
        var version = HTTPVersion.http1_1
        /// The connection stays open after the answer (the answer says `Connection: close` otherwise).
        var keepAlive = true
        /// A `HEAD` request: the answer has headers only.
        var isHead = false
        /// The request's `Accept-Encoding` (see ``HTTPReply/compressed(acceptEncoding:)``).
        var acceptEncoding: String?
        /// When the request's head was taken up, for the request log and metrics.
        var started = NIODeadline.uptimeNanoseconds(0)
    }

    /// How to write the answer ``answerReady()`` was told of.
    struct ResponsePlan {
        /// The request answered: its version, method, `Accept-Encoding`, start, and whether the
        /// connection is kept (the answer says `Connection: close` when it is not).
        var request: RequestFacts
        /// Close the connection once the answer is written (held requests are dropped).
        var close: Bool
    }
}

/// Performs an ``HTTPConnectionStateMachine``'s actions: the channel handler, and the tests' driver.
protocol HTTPConnectionActionPerformer: AnyObject {
    /// The connection's state machine.
    var machine: HTTPConnectionStateMachine { get set }
    /// Does what `action` says.
    func perform(_ action: consuming HTTPConnectionStateMachine.Action)
}

extension HTTPConnectionActionPerformer {
    /// After an answer that keeps the connection: performs what the parts held meanwhile call
    /// for, until a request waits for its answer; then resumes reading if nothing is left.
    /// Answers written from inside it (a request answered within its dispatch) come back here
    /// and return at once: this loop goes on with the next held request.
    func deliverHeld() {
        guard machine.startDelivery() else { return }
        while true {
            let action = machine.nextHeld()
            if case .none = action { return }
            perform(action)
        }
    }
}
