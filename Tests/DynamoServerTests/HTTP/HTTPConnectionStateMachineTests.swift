import DynamoAPI
@testable import DynamoServer
import NIOCore
import NIOHTTP1
import Testing

/// The connection state machine without sockets: what it answers, holds, dispatches and closes.
@Suite("HTTPConnectionStateMachine")
struct HTTPConnectionStateMachineTests {
    @Test("pipelined requests are held while one is answered, then dispatched in order")
    func pipeliningKeepsOrder() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/1"), body: ["a"])
        driver.receive(requestHead("/2"), body: ["bb"])
        driver.read() // held back: requests wait
        driver.receive(requestHead("/3"))
        #expect(driver.log == ["dispatch /1 1"])
        driver.answer()
        #expect(driver.log == ["dispatch /1 1", "answer /1 keep", "dispatch /2 2"])
        driver.clearLog()
        driver.answer()
        #expect(driver.log == ["answer /2 keep", "dispatch /3 0", "read"])
        driver.clearLog()
        driver.answer()
        #expect(driver.log == ["answer /3 keep"])
    }

    @Test("answers written within their dispatch release the next held request in the same pass")
    func inlineAnswersDrainTheHeldRequests() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/slow"))
        for index in 0..<3 { driver.receive(requestHead("/\(index)")) }
        driver.answersInline = { _ in true }
        driver.answer()
        #expect(driver.log == ["dispatch /slow 0", "answer /slow keep"] + (0..<3).flatMap { ["dispatch /\($0) 0", "answer /\($0) keep"] })
        #expect(driver.inFlight.isEmpty)
    }

    @Test("a read is passed on when nothing is held")
    func readsPassWhenNothingIsHeld() {
        let driver = StateMachineDriver()
        driver.read()
        driver.receive(requestHead("/1"))
        driver.read() // the answer is pending, but nothing is held: keep reading
        #expect(driver.log == ["read", "dispatch /1 0", "read"])
    }

    @Test("the body is aggregated from its parts")
    func bodyIsAggregated() {
        let driver = StateMachineDriver()
        driver.receive(.head(requestHead("/", [("Content-Length", "6")])))
        for piece in ["ab", "cd", "ef"] { driver.receive(.body(ByteBuffer(string: piece))) }
        #expect(driver.log.isEmpty)
        var dispatched: ByteBuffer?
        if case .dispatch(_, let summary, let body) = driver.machine.receive(.end(nil)) {
            #expect(summary.contentLength == 6)
            dispatched = body
        }
        #expect(dispatched == ByteBuffer(string: "abcdef"))
    }

    @Test("Expect: 100-continue is answered before the body")
    func continueIsSent() {
        let driver = StateMachineDriver()
        driver.receive(.head(requestHead("/", [("Expect", "100-continue"), ("Content-Length", "2")])))
        #expect(driver.log == ["100"])
        driver.receive(.body(ByteBuffer(string: "{}")))
        driver.receive(.end(nil))
        #expect(driver.log == ["100", "dispatch / 2"])
    }

    @Test("a declared length over the limit is answered 413, the body drained, then closed")
    func declaredLengthOverTheLimit() {
        let driver = StateMachineDriver(maximumBodyBytes: 4)
        driver.receive(.head(requestHead("/", [("Content-Length", "5"), ("X-Amz-Target", "DynamoDB_20120810.PutItem")])))
        #expect(driver.log == ["answer 413 drain"])
        driver.receive(.body(ByteBuffer(string: "12345")))
        driver.receive(.end(nil))
        driver.receive(requestHead("/after"))
        #expect(driver.log == ["answer 413 drain", "close"])
    }

    @Test("a declared length at the limit is accepted")
    func declaredLengthAtTheLimit() {
        let driver = StateMachineDriver(maximumBodyBytes: 4)
        driver.receive(requestHead("/", [("Content-Length", "4")]), body: ["1234"])
        #expect(driver.log == ["dispatch / 4"])
    }

    @Test("over the limit with Expect: 100-continue: 413 and close at once, no 100")
    func declaredLengthOverTheLimitWithContinue() {
        let driver = StateMachineDriver(maximumBodyBytes: 4)
        driver.receive(.head(requestHead("/", [("Content-Length", "5"), ("Expect", "100-continue")])))
        driver.receive(requestHead("/after"))
        #expect(driver.log == ["answer 413 close"])
    }

    @Test("a streamed body that outgrows the limit is answered 413 mid-body, drained, then closed")
    func streamedBodyOverTheLimit() {
        let driver = StateMachineDriver(maximumBodyBytes: 4)
        driver.receive(.head(requestHead("/", [("Transfer-Encoding", "chunked")])))
        driver.receive(.body(ByteBuffer(string: "123")))
        #expect(driver.log.isEmpty)
        driver.receive(.body(ByteBuffer(string: "45")))
        #expect(driver.log == ["answer 413 drain"])
        driver.receive(.body(ByteBuffer(string: "6789")))
        driver.read()
        driver.receive(.end(nil))
        #expect(driver.log == ["answer 413 drain", "read", "close"])
    }

    @Test("the refusal names the operation of the refused request")
    func refusalCarriesTheTarget() {
        var machine = HTTPConnectionStateMachine(maximumBodyBytes: 1, allocator: ByteBufferAllocator())
        let action = machine.receive(.head(requestHead("/", [("Content-Length", "2"), ("X-Amz-Target", "DynamoDB_20120810.Query")])))
        guard case .refuse(let refusal) = action else {
            Issue.record("expected a refusal, got \(action)")
            return
        }
        #expect(refusal == .bodyTooLarge(target: "DynamoDB_20120810.Query"))
        let plan = machine.answerReady()
        #expect(!plan.request.keepAlive && !plan.close)
    }

    @Test("an over-long request target is answered 400 and the connection closed")
    func requestTargetTooLong() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/" + String(repeating: "a", count: HTTPReply.maximumRequestTargetBytes)), body: ["{}"])
        driver.receive(requestHead("/after"))
        #expect(driver.log == ["answer 400 close"])
    }

    @Test("Connection: close is honoured, pipelined requests after it are dropped")
    func connectionClose() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/1", [("Connection", "close")]))
        driver.receive(requestHead("/2"))
        driver.answer()
        driver.receive(requestHead("/3"))
        #expect(driver.log == ["dispatch /1 0", "answer /1 close"])
    }

    @Test("HTTP/1.0 closes unless it asks for keep-alive", arguments: [false, true])
    func http10(asksForKeepAlive: Bool) {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/", version: .http1_0, asksForKeepAlive ? [("Connection", "keep-alive")] : []))
        driver.answer()
        #expect(driver.machine.current.version == .http1_0)
        #expect(driver.log == ["dispatch / 0", asksForKeepAlive ? "answer / keep" : "answer / close"])
    }

    @Test("a HEAD request is marked so its answer has headers only")
    func headRequest() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/", method: .HEAD))
        #expect(driver.machine.current.isHead)
        driver.receive(requestHead("/"))
        driver.answer()
        #expect(!driver.machine.current.isHead)
    }

    @Test("a half-closed idle connection closes at once")
    func halfCloseWhenIdle() {
        let driver = StateMachineDriver()
        driver.inputClosed()
        #expect(driver.log == ["close"])
        #expect(driver.machine.isClosing)
    }

    @Test("a half-closed busy connection answers what it has, then closes")
    func halfCloseWhenBusy() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/1"))
        driver.receive(requestHead("/2"))
        driver.inputClosed()
        driver.answer()
        driver.answer()
        #expect(driver.log == ["dispatch /1 0", "answer /1 keep", "dispatch /2 0", "answer /2 close"])
    }

    @Test("a half-closed connection with an incomplete held request closes after the last answer")
    func halfCloseWithAnIncompleteRequest() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/1"))
        driver.receive(.head(requestHead("/2", [("Content-Length", "9")])))
        driver.inputClosed()
        driver.answer()
        #expect(driver.log == ["dispatch /1 0", "answer /1 keep", "close"])
    }

    @Test("quiescing closes an idle connection now")
    func quiesceWhenIdle() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/1"))
        driver.answer()
        driver.quiesce()
        driver.receive(requestHead("/2"))
        #expect(driver.log == ["dispatch /1 0", "answer /1 keep", "close"])
    }

    @Test("quiescing a busy connection closes it after its answer and drops held requests")
    func quiesceWhenBusy() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/1"))
        driver.receive(requestHead("/2"))
        driver.quiesce()
        #expect(driver.log == ["dispatch /1 0"])
        driver.answer()
        #expect(driver.log == ["dispatch /1 0", "answer /1 close"])
    }

    @Test("quiescing while a body streams in answers that request, then closes")
    func quiesceWhileReceiving() {
        let driver = StateMachineDriver()
        driver.receive(.head(requestHead("/1")))
        driver.quiesce()
        driver.receive(.end(nil))
        driver.answer()
        #expect(driver.log == ["dispatch /1 0", "answer /1 close"])
    }

    @Test("malformed HTTP on an idle connection is answered 400 at once")
    func malformedWhenIdle() {
        let driver = StateMachineDriver()
        driver.parseError()
        driver.receive(requestHead("/after"))
        #expect(driver.log == ["400 close"])
    }

    @Test("malformed HTTP after pipelined requests is answered in its turn")
    func malformedInItsTurn() {
        let driver = StateMachineDriver()
        driver.receive(requestHead("/1"))
        driver.receive(requestHead("/2"))
        driver.parseError()
        #expect(driver.log == ["dispatch /1 0"])
        driver.answer()
        driver.answer()
        #expect(driver.log == ["dispatch /1 0", "answer /1 keep", "dispatch /2 0", "answer /2 keep", "400 close"])
    }

    /// Seeded random pipelines: requests with random bodies, split into random body parts, fed
    /// in random batches between random reads and answers (some written within their dispatch).
    /// Every request is dispatched once, whole, in order, and answered in order.
    @Test("random pipelines are answered in request order", arguments: [UInt64(1), 7, 39, 2026, 0xDEAD_BEEF])
    func randomPipelines(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let driver = StateMachineDriver(maximumBodyBytes: 1 << 20)
        let inlineEvery = UInt64.random(in: 2...5, using: &random)
        driver.answersInline = { head in UInt64(head.uri.dropFirst())! % inlineEvery == 0 }
        let count = Int.random(in: 1...40, using: &random)
        var parts: [HTTPServerRequestPart] = []
        var expected: [String] = []
        for index in 0..<count {
            let body = String(repeating: "x", count: Int.random(in: 0...30, using: &random))
            expected += ["dispatch /\(index) \(body.utf8.count)", "answer /\(index) keep"]
            parts.append(.head(requestHead("/\(index)", [("Content-Length", "\(body.utf8.count)")])))
            var rest = Substring(body)
            while !rest.isEmpty {
                let piece = rest.prefix(Int.random(in: 1...rest.count, using: &random))
                parts.append(.body(ByteBuffer(string: String(piece))))
                rest = rest.dropFirst(piece.count)
            }
            parts.append(.end(nil))
        }
        var next = 0
        while next < parts.count || !driver.inFlight.isEmpty {
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !driver.inFlight.isEmpty:
                driver.answer()
            case 1:
                driver.read()
            default:
                let batch = min(parts.count - next, Int.random(in: 1...6, using: &random))
                for part in parts[next..<next + batch] { driver.receive(part) }
                next += batch
                if batch == 0, !driver.inFlight.isEmpty { driver.answer() }
            }
        }
        #expect(driver.log.filter { $0 != "read" } == expected)
    }
}
