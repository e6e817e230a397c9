import DynamoAPI
import DynamoEngine

/// Renders `ItemCollectionMetrics` for `ReturnItemCollectionMetrics=SIZE`.
enum ItemCollectionWriter {
    /// `"ItemCollectionMetrics": {"ItemCollectionKey": {…}, "SizeEstimateRangeGB": [lower, upper]}`
    /// for a single-item write; nothing when the table has no local secondary index.
    static func writeMember(_ metric: ItemCollectionMetric?, first: Bool, to writer: inout JSONWriter) {
        guard let metric else { return }
        writer.writeKey("ItemCollectionMetrics", first: first)
        write(metric, to: &writer)
    }

    /// `"ItemCollectionMetrics": {"<table>": [{…}, …], …}` for batches and transactions, when
    /// the request asked for `SIZE` (an empty map when no table written has an LSI).
    static func writeMap(_ mode: String?, _ metrics: [String: [ItemCollectionMetric]], first: Bool,
                         to writer: inout JSONWriter) {
        guard mode == "SIZE" else { return }
        writer.writeKey("ItemCollectionMetrics", first: first)
        writer.writeRaw(UInt8(ascii: "{"))
        for (position, (table, entries)) in metrics.sorted(by: { $0.key < $1.key }).enumerated() {
            writer.writeKey(table, first: position == 0)
            TableDescriptionWriter.writeArray(entries, to: &writer) { metric, writer in write(metric, to: &writer) }
        }
        writer.writeRaw(UInt8(ascii: "}"))
    }

    private static func write(_ metric: ItemCollectionMetric, to writer: inout JSONWriter) {
        writer.writeRaw(UInt8(ascii: "{"))
        writer.writeKey("ItemCollectionKey", first: true)
        AttributeValue.encode(item: metric.key, to: &writer)
        writer.writeKey("SizeEstimateRangeGB", first: false)
        let range = metric.sizeEstimateRangeGB
        TableDescriptionWriter.writeArray([range.lower, range.upper], to: &writer) { bound, writer in
            writer.write(numberText: String(bound))
        }
        writer.writeRaw(UInt8(ascii: "}"))
    }
}
