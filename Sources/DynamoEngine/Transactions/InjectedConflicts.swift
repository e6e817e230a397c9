import DynamoAPI
import Synchronization

/// Transaction conflicts on demand, so client retry code can be tested.
///
/// DynamoDB cancels a transaction with `TransactionConflict` when another transaction is
/// writing one of its items; with SQLite's single writer that never happens by accident here.
/// Arming a table makes its next N TransactWriteItems fail that way, as production would.
final class InjectedConflicts: Sendable {
    private let armed = Mutex<[String: Int]>([:])

    /// Makes the next `count` transactions touching `table` conflict (`0` disarms).
    func arm(table: String, count: Int) {
        armed.withLock { $0[table] = count > 0 ? count : nil }
    }

    /// Consumes one armed conflict for the first of `tables` that has one, and returns that table.
    func take(forAnyOf tables: [String]) -> String? {
        armed.withLock { armed in
            for table in tables {
                guard let remaining = armed[table] else { continue }
                armed[table] = remaining > 1 ? remaining - 1 : nil
                return table
            }
            return nil
        }
    }
}

extension Database {
    /// Arms injected transaction conflicts on a table of this namespace.
    package func injectTransactionConflicts(table: String, count: Int) {
        injectedConflicts.arm(table: TableReference.name(from: table), count: count)
    }

    /// Throws DynamoDB's cancellation for a transaction that conflicts on `table`: the actions
    /// on that table report `TransactionConflict`, the others `None`.
    func throwInjectedConflict(table: String, actionTables: [String]) throws -> Never {
        let reasons = actionTables.map { name in
            name == table
                ? CancellationReason(code: "TransactionConflict", message: "Transaction is ongoing for the item")
                : CancellationReason(code: "None")
        }
        let codes = reasons.map { $0.code ?? "None" }.joined(separator: ", ")
        throw DynamoError(.transactionCanceled,
                          "Transaction cancelled, please refer cancellation reasons for specific reasons [\(codes)]",
                          cancellationReasons: reasons)
    }
}
