@testable import DynamoServer
import NIOCore
import NIOHTTP1
import Testing

/// Plays `HTTPRequestHandler`'s part for an ``HTTPConnectionStateMachine`` without a channel:
/// performs its actions and writes down what went on the wire, in order.
///
/// Entries: `read`, `100` (continue), `dispatch URI BYTES`, `answer WHAT keep|drain|close` (keep:
/// the connection stays; drain: `Connection: close` but open until the body is drained; close:
/// closed once written), `400 close` (malformed HTTP), `close`.
final class StateMachineDriver: HTTPConnectionActionPerformer {
    var machine: HTTPConnectionStateMachine
    private(set) var log: [String] = []
    /// Dispatched requests (their URIs) whose answers were not written yet, oldest first.
    private(set) var inFlight: [String] = []
    /// Whether a dispatched request is answered at once, within the dispatch.
    var answersInline: (HTTPRequestHead) -> Bool = { _ in false }

    init(maximumBodyBytes: Int = 64) {
        machine = HTTPConnectionStateMachine(maximumBodyBytes: maximumBodyBytes, allocator: ByteBufferAllocator())
    }

    /// Feeds a part, as the decoder would.
    func receive(_ part: HTTPServerRequestPart) { perform(machine.receive(part)) }

    /// Feeds a request: head, the body in the given pieces, end.
    func receive(_ head: HTTPRequestHead, body pieces: [String] = []) {
        receive(.head(head))
        for piece in pieces { receive(.body(ByteBuffer(string: piece))) }
        receive(.end(nil))
    }

    func read() { perform(machine.readRequested()) }
    func parseError() { perform(machine.parseFailed()) }
    func inputClosed() { perform(machine.inputClosed()) }
    func quiesce() { perform(machine.quiesce()) }

    /// Writes the answer to the oldest dispatched request.
    func answer() {
        guard !inFlight.isEmpty else {
            Issue.record("no request to answer")
            return
        }
        write(inFlight.removeFirst())
    }

    /// Forgets what was logged so far.
    func clearLog() { log.removeAll() }

    func perform(_ action: consuming HTTPConnectionStateMachine.Action) {
        switch action {
        case .none:
            break
        case .read:
            log.append("read")
        case .sendContinue:
            log.append("100")
        case .dispatch(let head, _, let body):
            log.append("dispatch \(head.uri) \(body?.readableBytes ?? 0)")
            inFlight.append(head.uri)
            if answersInline(head) { answer() }
        case .refuse(.requestTargetTooLong):
            write("400")
        case .refuse(.bodyTooLarge):
            write("413")
        case .answerMalformed:
            log.append("400 close")
        case .close:
            log.append("close")
        }
    }

    private func write(_ what: String) {
        let plan = machine.answerReady()
        log.append("answer \(what) \(plan.close ? "close" : plan.request.keepAlive ? "keep" : "drain")")
        if !plan.close { deliverHeld() }
    }
}

/// A request head for the state machine tests.
func requestHead(
    _ uri: String,
    method: HTTPMethod = .POST,
    version: HTTPVersion = .http1_1,
    _ headers: [(String, String)] = []
) -> HTTPRequestHead {
    HTTPRequestHead(version: version, method: method, uri: uri, headers: HTTPHeaders(headers))
}
