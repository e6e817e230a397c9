import DynamoAPI
import Synchronization

/// TransactWriteItems' `ClientRequestToken`: for ten minutes, a token seen with the same request
/// returns the first call's result without writing again; with a different request it is an
/// `IdempotentParameterMismatchException`.
final class IdempotencyTokens: Sendable {
    /// How long DynamoDB remembers a token.
    static let lifetime: Double = 600

    private struct Entry {
        var request: CanonicalForm
        var result: TransactWriteResult
        var recorded: Double
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Runs `body` once per (token, request) within the lifetime; repeats return its result.
    /// Requests are compared by their ``CanonicalForm`` (maps as maps, sets as sets, numbers by
    /// value), so a retry of the same request always matches.
    ///
    /// The check and the record happen around `body`, which runs under the database's writer
    /// lock, so two concurrent calls with one token cannot both write.
    func run(
        token: String, request: CanonicalForm, now: Double,
        _ body: () throws -> TransactWriteResult
    ) throws -> TransactWriteResult {
        let known: Entry? = entries.withLock { entries in
            entries = entries.filter { now - $0.value.recorded < Self.lifetime }
            return entries[token]
        }
        if let known {
            guard known.request == request else {
                throw EngineMessages.requestSameClientTokenAlready
            }
            return known.result
        }
        let result = try body()
        entries.withLock { $0[token] = Entry(request: request, result: result, recorded: now) }
        return result
    }

    /// Forgets every token (the database was restored from a snapshot).
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
