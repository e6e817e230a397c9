import DynamoEngine

/// Collects the capacity one request consumed, table by table, where the operations report it
/// (`CapacityWriter`, which every item, batch, transaction, Query and Scan answer passes
/// through). Bound with `$current.withValue` around one engine call on one thread.
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
}
