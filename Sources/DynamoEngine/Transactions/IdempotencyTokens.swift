import AWSSigV4
import DynamoAPI
import Synchronization

/// TransactWriteItems' `ClientRequestToken`: for ten minutes, a token seen with the same request
/// returns the first call's result without writing again; with a different request it is an
/// `IdempotentParameterMismatchException`.
///
/// A busy client sends a new token with every transaction, so the tokens of ten minutes are
/// kept cheaply: each request as the SHA-256 of its ``CanonicalForm`` (32 bytes instead of the
/// request), and expired tokens dropped oldest first, a few at a time, instead of a pass over
/// every token on every call.
final class IdempotencyTokens: Sendable {
    /// How long DynamoDB remembers a token.
    static let lifetime: Double = 600

    private struct Entry {
        var requestDigest: [UInt8]
        var result: TransactWriteResult
        var recorded: Double
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Tokens in the order they were recorded; `expiredBefore` of them are gone.
        var recordings: [(token: String, recorded: Double)] = []
        var expiredBefore = 0

        /// Forgets the tokens recorded `lifetime` or more before `now`, oldest first.
        mutating func expire(now: Double) {
            while expiredBefore < recordings.count, now - recordings[expiredBefore].recorded >= IdempotencyTokens.lifetime {
                let (token, recorded) = recordings[expiredBefore]
                if entries[token]?.recorded == recorded { entries[token] = nil }
                expiredBefore += 1
            }
            if expiredBefore > 1024, expiredBefore * 2 > recordings.count {
                recordings.removeFirst(expiredBefore)
                expiredBefore = 0
            }
        }
    }

    private let state = Mutex(State())

    /// The number of tokens remembered now (for tests).
    var count: Int { state.withLock { $0.entries.count } }

    /// Runs `body` once per (token, request) within the lifetime; repeats return its result, with
    /// the read capacity of a repeat (``TransactWriteResult/replayed``).
    /// Requests are compared by their ``CanonicalForm`` (maps as maps, sets as sets, numbers by
    /// value), so a retry of the same request always matches.
    ///
    /// The check and the record happen around `body`, which runs under the database's writer
    /// lock, so two concurrent calls with one token cannot both write.
    func run(
        token: String, request: CanonicalForm, now: Double,
        _ body: () throws -> TransactWriteResult
    ) throws -> TransactWriteResult {
        let digest = SHA256.hash(request.bytes)
        let known: Entry? = state.withLock { state in
            state.expire(now: now)
            return state.entries[token]
        }
        if let known {
            guard known.requestDigest == digest else {
                throw EngineMessages.requestSameClientTokenAlready
            }
            return known.result.replayed
        }
        let result = try body()
        state.withLock { state in
            state.entries[token] = Entry(requestDigest: digest, result: result, recorded: now)
            state.recordings.append((token, now))
        }
        return result
    }

    /// Forgets every token (the database was restored from a snapshot).
    func removeAll() {
        state.withLock { $0 = State() }
    }
}
