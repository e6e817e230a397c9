import DynamoAPI
import DynamoEngine

extension TableDescriptionWriter {
    /// The members of a table description that come from the control-plane settings:
    /// `WarmThroughput`, and for a 2019.11.21 global table `Replicas` and `GlobalTableVersion`,
    /// each written from its generated shape.
    static func writeSettings(_ table: TableSnapshot, to writer: inout JSONWriter) {
        writer.writeKey("WarmThroughput", first: false)
        table.definition.warmThroughput.encode(to: &writer)
        if let replicas = table.replicaDescriptions {
            writer.writeKey("Replicas", first: false)
            writeArray(replicas, to: &writer) { replica, writer in replica.encode(to: &writer) }
            writer.writeKey("GlobalTableVersion", first: false)
            writer.write(string: GlobalTableVersion.current)
        }
    }
}
