import DynamoAPI
import Synchronization

/// Transaction conflicts on demand, so client retry code can be tested.
///
/// DynamoDB cancels a transaction with `TransactionConflict` when another transaction is
/// writing one of its items, and refuses a plain write to such an item with
/// `TransactionConflictException`; with SQLite's single writer neither happens by accident here.
/// Arming a table with N stands for another transaction holding the items of that table for the
/// next N writes to it: each TransactWriteItems touching the table is cancelled (its actions on
/// the table report `TransactionConflict`), and each PutItem, UpdateItem or DeleteItem on it
/// fails with `TransactionConflictException`, as production would; every failed write uses up
/// one. Reads, BatchWriteItem and the writes of other tables are unaffected.
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

    /// Throws `TransactionConflictException` for a plain write to `table` if a conflict is armed
    /// there, using it up.
    func checkInjectedConflict(writingTo table: String) throws(DynamoError) {
        guard injectedConflicts.take(forAnyOf: [table]) != nil else { return }
        throw DynamoError(.transactionConflict, Self.transactionOngoing)
    }

    /// DynamoDB's words for an item another transaction is writing.
    static let transactionOngoing = "Transaction is ongoing for the item"

    /// Throws DynamoDB's cancellation for a transaction that conflicts on `table`: the actions
    /// on that table report `TransactionConflict`, the others `None`.
    func throwInjectedConflict(table: String, actionTables: [String]) throws -> Never {
        let reasons = actionTables.map { name in
            name == table
                ? CancellationReason(code: "TransactionConflict", message: Self.transactionOngoing)
                : CancellationReason(code: "None")
        }
        throw DynamoError.transactionCanceled(reasons)
    }
}
