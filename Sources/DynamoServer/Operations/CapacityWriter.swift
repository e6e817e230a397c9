import DynamoAPI
import DynamoEngine

/// Renders `ConsumedCapacity` for `ReturnConsumedCapacity`: nothing for `NONE` (or absent), the
/// total for `TOTAL`, and the total with its split over the table and each index for `INDEXES`.
/// Every answer's units also go to the request's `CapacityRecorder` (`--throttle`), whatever
/// the mode.
enum CapacityWriter {
    /// Whether the request asked for capacity.
    static func wanted(_ mode: String?) -> Bool { mode == "TOTAL" || mode == "INDEXES" }

    /// `"ConsumedCapacity": {…}` for a single-table operation.
    static func writeMember(_ mode: String?, table: String, units: ConsumedUnits, first: Bool,
                            to writer: inout JSONWriter) {
        CapacityRecorder.current?.record(units, table: table)
        guard let mode, wanted(mode) else { return }
        writer.writeKey("ConsumedCapacity", first: first)
        write(units, table: table, mode: mode, to: &writer)
    }

    /// `"ConsumedCapacity": [{…}, …]`, one entry per table in name order, for batches and
    /// transactions.
    static func writeList(_ mode: String?, _ units: [String: ConsumedUnits], first: Bool,
                          to writer: inout JSONWriter) {
        if let recorder = CapacityRecorder.current {
            for (table, spent) in units { recorder.record(spent, table: table) }
        }
        guard let mode, wanted(mode) else { return }
        writer.writeKey("ConsumedCapacity", first: first)
        TableDescriptionWriter.writeArray(units.sorted(by: { $0.key < $1.key }), to: &writer) { entry, writer in
            write(entry.value, table: entry.key, mode: mode, to: &writer)
        }
    }

    /// One `ConsumedCapacity` object.
    static func write(_ units: ConsumedUnits, table: String, mode: String, to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("TableName", first: true)
        writer.write(string: table)
        writer.writeKey("CapacityUnits", first: false)
        writer.write(numberText: text(units.total))
        if mode == "INDEXES" {
            writer.writeKey("Table", first: false)
            writeCapacity(units.table, to: &writer)
            for (member, indexes) in [("LocalSecondaryIndexes", units.localIndexes),
                                      ("GlobalSecondaryIndexes", units.globalIndexes)] where !indexes.isEmpty {
                writer.writeKey(member, first: false)
                writer.writeRaw(UInt8(ascii: "{"))
                for (position, (name, spent)) in indexes.sorted(by: { $0.key < $1.key }).enumerated() {
                    writer.writeKey(name, first: position == 0)
                    writeCapacity(spent, to: &writer)
                }
                writer.writeRaw(UInt8(ascii: "}"))
            }
        }
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// `{"CapacityUnits": n}`.
    private static func writeCapacity(_ units: Double, to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("CapacityUnits", first: true)
        writer.write(numberText: text(units))
        writer.writeRaw(UInt8(ascii: "}"))
    }

    /// Capacity units as DynamoDB prints them (a double: `1.0`, `0.5`).
    static func text(_ units: Double) -> String { String(units) }
}
