import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The records a write's changes send to its tables' ACTIVE Kinesis streaming destinations (a
/// change consumer of ``Database/consumeItemChanges(_:)``), in DynamoDB's Kinesis format:
///
/// ```
/// {"awsRegion": …, "eventID": <uuid>, "eventName": "INSERT" | "MODIFY" | "REMOVE",
///  "userIdentity": null | {"principalId": "dynamodb.amazonaws.com", "type": "Service"},
///  "recordFormat": "application/json", "tableName": …,
///  "dynamodb": {"ApproximateCreationDateTime": <ms or µs>, "Keys": …, "NewImage": …,
///               "OldImage": …, "SizeBytes": …},
///  "eventSource": "aws:dynamodb"}
/// ```
///
/// Both images go with every record (a destination has no view type); the timestamp counts
/// milliseconds, or microseconds with `ApproximateCreationDateTimePrecision` MICROSECOND. The
/// records are handed to the sink's queue (never sent inside the transaction).
extension Database {
    func queueKinesisRecords(_ changes: [ItemChange]) throws {
        // The common case, no destination among the changes, costs one look per change.
        guard changes.contains(where: { !($0.table.controlSettings.kinesisDestinations ?? []).isEmpty }),
            let sink = kinesis.sink
        else { return }
        let now = clock.now()
        var records: [KinesisChangeRecord] = []
        for change in changes {
            let active = (change.table.controlSettings.kinesisDestinations ?? [])
                .filter { Self.destinationStatus($0, now: now) == .active }
            guard !active.isEmpty, let record = try Self.kinesisRecord(change, region: region, now: now) else { continue }
            for destination in active {
                let precision = destination.precision ?? .millisecond
                records.append(
                    KinesisChangeRecord(
                        streamARN: destination.streamARN, region: region, partitionKey: record.partitionKey,
                        data: record.json(precision == .microsecond)))
            }
        }
        guard !records.isEmpty else { return }
        // In `service` mode the records reach Kinesis after a delay (ConsistencyModel).
        if consistency.isActive, let table = changes.first?.table.name {
            consistency.sendKinesisRecords(records, table: table, sink: sink, clock: clock)
        } else {
            sink.enqueue(records)
        }
    }

    /// A change's record with its timestamp still to format, or `nil` when nothing changed.
    static func kinesisRecord(_ change: ItemChange, region: String, now: Double) throws
        -> (partitionKey: String, json: (_ micro: Bool) -> [UInt8])?
    {
        if let old = change.oldJSON, let new = change.newJSON, old == new { return nil }
        let oldItem = try change.oldJSON.map(item)
        let newItem = try change.newJSON.map(item)
        if let oldItem, let newItem, oldItem == newItem { return nil }
        guard let image = newItem ?? oldItem else { return nil }
        let keys = change.table.keyOnly(image)
        let eventName: StreamsOperationType = oldItem == nil ? .insert : newItem == nil ? .remove : .modify
        let size = ItemSize.of(keys) + (newItem.map(ItemSize.of) ?? 0) + (oldItem.map(ItemSize.of) ?? 0)
        let eventID = UUID().uuidString.lowercased()
        let micros = Int64((now * 1_000_000).rounded(.down))
        var keyWriter = JSONWriter()
        AttributeValue.encode(item: keys, to: &keyWriter)
        let partitionKey = MD5.hex(keyWriter.bytes).uppercased()
        return (
            partitionKey,
            { micro in
                var writer = JSONWriter()
                writer.writeRaw(UInt8(ascii: "{"))
                writer.writeKey("awsRegion", first: true); writer.write(string: region)
                writer.writeKey("eventID", first: false); writer.write(string: eventID)
                writer.writeKey("eventName", first: false); writer.write(string: eventName.rawValue)
                writer.writeKey("userIdentity", first: false)
                if change.origin == .timeToLive {
                    writer.writeRaw(Array(#"{"principalId":"dynamodb.amazonaws.com","type":"Service"}"#.utf8))
                } else {
                    writer.writeRaw(Array("null".utf8))
                }
                writer.writeKey("recordFormat", first: false); writer.write(string: "application/json")
                writer.writeKey("tableName", first: false); writer.write(string: change.table.name)
                writer.writeKey("dynamodb", first: false)
                writer.writeRaw(UInt8(ascii: "{"))
                writer.writeKey("ApproximateCreationDateTime", first: true)
                writer.write(micro ? micros : micros / 1000)
                writer.writeKey("Keys", first: false); AttributeValue.encode(item: keys, to: &writer)
                if let newItem { writer.writeKey("NewImage", first: false); AttributeValue.encode(item: newItem, to: &writer) }
                if let oldItem { writer.writeKey("OldImage", first: false); AttributeValue.encode(item: oldItem, to: &writer) }
                writer.writeKey("SizeBytes", first: false); writer.write(max(1, size))
                writer.writeRaw(UInt8(ascii: "}"))
                writer.writeKey("eventSource", first: false); writer.write(string: "aws:dynamodb")
                writer.writeRaw(UInt8(ascii: "}"))
                return writer.bytes
            }
        )
    }
}
