import DynamoEngine

/// Collects the capacity one request consumed, table by table, where the operations report it
/// (every item, batch, transaction, Query and Scan row calls ``report(_:table:)`` or
/// ``report(_:)``, whatever the request's `ReturnConsumedCapacity`). Bound with
/// `$current.withValue` around one engine call on one thread.
final class CapacityRecorder: @unchecked Sendable {
    // Unchecked: used only by the thread that runs the one engine call it is bound around.

    /// The recorder of the engine call running on this thread, if throttling is on.
    @TaskLocal static var current: CapacityRecorder?

    /// Units consumed per table name.
    private(set) var consumed: [String: ConsumedUnits] = [:]

    /// Adds what an operation consumed on `table`.
    func record(_ units: ConsumedUnits, table: String) {
        consumed[table, default: ConsumedUnits()].add(units)
    }

    /// Records what an operation consumed on `table` with the current recorder, if any.
    static func report(_ units: ConsumedUnits, table: String) {
        current?.record(units, table: table)
    }

    /// Records what a batch or transaction consumed, per table, with the current recorder.
    static func report(_ units: [String: ConsumedUnits]) {
        guard let recorder = current else { return }
        for (table, spent) in units { recorder.record(spent, table: table) }
    }
}
