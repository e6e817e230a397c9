import NIOCore
import NIOHTTP1

/// One connection's HTTP/1.1 request cycle as a value: events in, actions out, no channel.
///
/// It answers one request at a time. Parts of pipelined requests (and a parse error) that arrive
/// while an answer is being prepared are held, and reading pauses, until that answer is written;
/// they are then delivered in order through ``nextHeld()``. It aggregates the body, enforcing the
/// size limit as it streams in, and decides when the connection closes: `Connection: close` and
/// HTTP/1.0 without keep-alive, a half-closed client, a graceful shutdown (quiescing), an
/// oversize body or request target, malformed HTTP.
///
/// ```swift
/// var machine = HTTPConnectionStateMachine(maximumBodyBytes: 1024, allocator: allocator)
/// machine.receive(.head(head))                    // .none
/// machine.receive(.end(nil))                      // .dispatch(head, summary, body: nil)
/// let plan = machine.answerReady()                // frame the answer with `plan`, write it
/// if !plan.close, machine.startDelivery() {       // then nextHeld() until it returns .none
///     machine.nextHeld()                          // the next held request, or .read, or .none
/// }
/// ```
///
/// The adapter (`HTTPRequestHandler`) performs each action before it feeds the next event (see
/// ``HTTPConnectionActionPerformer``). The actions and what they carry are in
/// `HTTPConnectionStateMachine+Actions.swift`.
struct HTTPConnectionStateMachine {
    private enum State {
        /// Waiting for a request head.
        case idle
        /// Reading a request's body.
        case receiving(HTTPRequestHead, RequestHeaderSummary, body: ByteBuffer?)
        /// The body outgrew the limit; 413 is answered and the rest of the body is dropped.
        case discarding
        /// The request is complete and its answer is being prepared.
        case responding
        /// The connection closes (or closed): nothing more is read or answered.
        case closing
    }

    /// What arrived while an answer was being prepared.
    private enum Held {
        case part(HTTPServerRequestPart)
        /// Malformed HTTP: answered 400 (and the connection closed) in its turn.
        case parseError
    }

    /// The largest request body accepted.
    let maximumBodyBytes: Int
    /// Allocates the buffer of a body whose length is declared.
    private let allocator: ByteBufferAllocator
    private var state = State.idle
    /// The request being answered (or the last one).
    private(set) var current = RequestFacts()
    /// Pipelined parts (and a parse error) received while an answer was being prepared.
    private var held = CircularBuffer<Held>()
    /// A `read()` held back while `held` is not empty.
    private var readPending = false
    /// The client half-closed its side: close once the current answer is written.
    private var halfClosed = false
    /// A graceful shutdown asked this connection to close after the current answer.
    private var quiescing = false
    /// Held parts are being taken up (from ``startDelivery()`` until ``nextHeld()`` returns `.none`).
    private var delivering = false

    /// A machine for a new connection, waiting for its first request.
    init(maximumBodyBytes: Int, allocator: ByteBufferAllocator) {
        self.maximumBodyBytes = maximumBodyBytes
        self.allocator = allocator
    }

    /// The connection is closing: whatever arrives is ignored.
    var isClosing: Bool {
        if case .closing = state { return true }
        return false
    }

    /// A request is complete and its answer is being prepared.
    private var isResponding: Bool {
        if case .responding = state { return true }
        return false
    }

    /// A request part arrived from the decoder.
    mutating func receive(_ part: HTTPServerRequestPart) -> Action {
        // Checked apart from `take(_:)`, so no copy of the state (and of the body it aggregates)
        // is alive while `take(_:)` appends to that body.
        if isClosing { return .none }
        guard !isResponding, held.isEmpty else {
            held.append(.part(part))
            return .none
        }
        return take(part)
    }

    /// The channel asks for more input: passed on unless requests are held.
    mutating func readRequested() -> Action {
        guard held.isEmpty else {
            readPending = true
            return .none
        }
        return .read
    }

    /// The decoder found malformed HTTP (it refuses the rest of the connection's bytes); it is
    /// answered in its turn, after the answers to the requests before it.
    mutating func parseFailed() -> Action {
        switch state {
        case .closing:
            return .none
        case .responding:
            held.append(.parseError)
            return .none
        case .idle, .receiving, .discarding:
            guard held.isEmpty else {
                held.append(.parseError)
                return .none
            }
            return answerMalformed()
        }
    }

    /// The client half-closed the connection: an idle connection closes now, a busy one once
    /// its answers are written.
    mutating func inputClosed() -> Action {
        halfClosed = true
        guard case .idle = state, held.isEmpty else { return .none }
        state = .closing
        return .close
    }

    /// A graceful shutdown: an idle connection closes now, a busy one after its answer (which
    /// says `Connection: close`); held pipelined requests are not answered.
    mutating func quiesce() -> Action {
        guard !isClosing else { return .none }
        quiescing = true
        held.removeAll()
        guard case .idle = state else { return .none }
        state = .closing
        return .close
    }

    /// The current request's answer (dispatched or refused) is about to be written: how to frame
    /// it and whether to close after it. Unless it closes, call ``startDelivery()`` once it is
    /// written.
    mutating func answerReady() -> ResponsePlan {
        if quiescing { current.keepAlive = false }
        let close: Bool
        switch state {
        case .discarding:
            // A 413 mid-body: closed once the body is drained, so the answer is not lost to a reset.
            close = false
        case .closing:
            close = true
        case .idle, .receiving, .responding:
            close = !current.keepAlive || (halfClosed && held.isEmpty)
            if case .responding = state { state = .idle }
        }
        if close {
            held.removeAll()
            state = .closing
        }
        return ResponsePlan(request: current, close: close)
    }

    /// After an answer that keeps the connection was written: whether there is anything to take
    /// up (held parts, a held-back read, a half-close), and it is not under way already (an answer
    /// written from inside it). When `true`, call ``nextHeld()`` until it returns `.none`,
    /// performing each action (a `.dispatch` answered at once included).
    mutating func startDelivery() -> Bool {
        guard !delivering, !held.isEmpty || readPending || halfClosed else { return false }
        delivering = true
        return true
    }

    /// The next thing to do with what was held while the last answer was prepared; `.none` when
    /// a request waits for its answer or nothing is left (which ends the delivery).
    mutating func nextHeld() -> Action {
        let action = takeNextHeld()
        if case .none = action { delivering = false }
        return action
    }

    private mutating func takeNextHeld() -> Action {
        // Closing leaves nothing held.
        while !held.isEmpty {
            if case .responding = state { return .none }
            let action: Action
            switch held.removeFirst() {
            case .part(let part): action = take(part)
            case .parseError: action = answerMalformed()
            }
            if case .none = action { continue }
            return action
        }
        switch state {
        case .idle, .receiving, .discarding:
            if halfClosed {
                // Nothing more can arrive: an incomplete request never completes.
                state = .closing
                return .close
            }
        case .responding, .closing:
            // Reading resumes while the last held request is answered: what arrives meanwhile is held.
            break
        }
        return resumeReading()
    }

    private mutating func resumeReading() -> Action {
        guard readPending else { return .none }
        readPending = false
        return .read
    }

    private mutating func answerMalformed() -> Action {
        held.removeAll()
        state = .closing
        return .answerMalformed
    }

    /// Handles a part that is not held.
    private mutating func take(_ part: HTTPServerRequestPart) -> Action {
        switch part {
        case .head(let head):
            return takeHead(head)
        case .body(var part):
            guard case .receiving(let head, let summary, var body) = state else { return .none }
            state = .responding // drop the reference so `body` is uniquely owned
            let size = (body?.readableBytes ?? 0) + part.readableBytes
            if size > maximumBodyBytes {
                return refuseOversize(summary, expectsContinue: false)
            }
            if body == nil {
                if let length = summary.contentLength, length > part.readableBytes {
                    // Room for the whole declared body at once, not a series of regrowths.
                    var whole = allocator.buffer(capacity: length)
                    whole.writeBuffer(&part)
                    part = whole
                }
                state = .receiving(head, summary, body: part)
            } else {
                body!.writeBuffer(&part)
                state = .receiving(head, summary, body: body)
            }
            return .none
        case .end:
            switch state {
            case .receiving(let head, let summary, let body):
                state = .responding
                return .dispatch(head, summary, body: body)
            case .discarding:
                // 413 was answered with `Connection: close`.
                state = .closing
                return .close
            case .idle, .responding, .closing:
                return .none
            }
        }
    }

    private mutating func takeHead(_ head: HTTPRequestHead) -> Action {
        let summary = RequestHeaderSummary(head.headers)
        current = RequestFacts(
            version: head.version, keepAlive: head.isKeepAlive, isHead: head.method == .HEAD,
            acceptEncoding: summary.acceptEncoding, started: .now())
        if head.uri.utf8.count > HTTPReply.maximumRequestTargetBytes {
            // DynamoDB answers a request target this long 400 without reading it further; the
            // body is not read either, so the connection cannot be reused.
            current.keepAlive = false
            state = .responding
            return .refuse(.requestTargetTooLong)
        }
        if let length = summary.contentLength, length > maximumBodyBytes {
            return refuseOversize(summary, expectsContinue: summary.expectsContinue)
        }
        state = .receiving(head, summary, body: nil)
        return summary.expectsContinue ? .sendContinue : .none
    }

    /// 413, then close: once the client's body is drained (so the answer is not lost to a
    /// reset), or at once when the client waits for `100 Continue` and so will not send the body.
    private mutating func refuseOversize(_ summary: RequestHeaderSummary, expectsContinue: Bool) -> Action {
        current.keepAlive = false
        state = expectsContinue ? .responding : .discarding
        return .refuse(.bodyTooLarge(target: summary.target))
    }
}
