import Synchronization

/// Where Kinesis streaming destinations send their change records (`serve --kinesis-endpoint`):
/// an HTTP implementation over libcurl puts them with `PutRecords`. Without a sink a destination
/// only keeps its status, as before.
package protocol KinesisRecordSink: Sendable {
    /// Whether the data stream exists and can be written (asked when a destination is enabled;
    /// `false` settles the destination in ENABLE_FAILED). May block for a network round trip.
    func streamIsWritable(streamARN: String, region: String) -> Bool
    /// Queues records for delivery, in order, and returns at once: a write never waits for
    /// Kinesis.
    func enqueue(_ records: [KinesisChangeRecord])
}

/// One change record on its way to a Kinesis data stream.
package struct KinesisChangeRecord: Sendable, Equatable {
    /// The destination stream's ARN.
    package var streamARN: String
    /// The region that signs the call (the stream's region, the table's).
    package var region: String
    /// The record's partition key: one per item, so an item's records keep their order (one
    /// shard holds them).
    package var partitionKey: String
    /// The record, DynamoDB's Kinesis JSON.
    package var data: [UInt8]

    package init(streamARN: String, region: String, partitionKey: String, data: [UInt8]) {
        self.streamARN = streamARN
        self.region = region
        self.partitionKey = partitionKey
        self.data = data
    }
}

/// A database's sink, set when the engine opens it.
package final class KinesisLink: Sendable {
    private let current = Mutex<(any KinesisRecordSink)?>(nil)

    package init() {}

    /// The sink, `nil` without `--kinesis-endpoint`.
    package var sink: (any KinesisRecordSink)? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
