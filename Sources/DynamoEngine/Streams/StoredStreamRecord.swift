import DynamoAPI

/// A stream record as its `stream_records` row stores it (the `record` column), and the
/// `Record` GetRecords returns built from it.
///
/// Rows written since session 8 hold the record's fields in a compact binary form, not its JSON:
/// the writer copies the item's stored bytes and stored key in, and the JSON envelope, the key
/// attributes, the event id's hex, the sequence number's digits and the size are made on read.
/// What every record of a stream shares is not stored at all: the region (the namespace's), the
/// view type and key attribute names (the stream's row), the sequence number and the creation
/// time (the row's `sequence` and `created`).
///
/// Layout (integers as unsigned LEB128 varints):
///
///     0x01                                  format (a JSON record starts with `{`, 0x7B)
///     flags                                 event: 0 INSERT, 1 MODIFY, 2 REMOVE; +4: by TTL
///     16 bytes                              event id (two UInt64, little endian)
///     varint                                the stored sizes of the images the record holds
///     type, varint length, bytes            the stored partition key (type `S`, `N` or `B`)
///     type, varint length, bytes            the stored sort key (type 0 and nothing: none)
///     varint length + 1, bytes              NewImage's stored item JSON (0: none)
///     varint length + 1, bytes              OldImage's stored item JSON (0: none)
///
/// Rows written before hold the record's JSON and still read (``record(blob:sequence:created:stream:region:)``).
enum StoredStreamRecord {
    /// The first byte of a compact record.
    static let format: UInt8 = 1
    /// About how many bytes the JSON envelope adds to a compact record's stored bytes on read
    /// (member names, event id, sequence number, region): GetRecords' 1 MB page counts it.
    static let envelopeBytes = 320

    /// The compact bytes of one record.
    static func encode(
        event: StreamsOperationType, byTimeToLive: Bool, eventID: (UInt64, UInt64), imageSize: Int,
        key: StoredKey, table: TableDefinition, newImage: [UInt8]?, oldImage: [UInt8]?
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(40 + key.partition.count + key.sort.count + (newImage?.count ?? 0) + (oldImage?.count ?? 0))
        out.append(format)
        let code: UInt8 = event == .insert ? 0 : event == .modify ? 1 : 2
        out.append(code | (byTimeToLive ? 4 : 0))
        appendWord(eventID.0, to: &out)
        appendWord(eventID.1, to: &out)
        appendVarint(UInt64(max(0, imageSize)), to: &out)
        out.append(typeByte(table.partitionKey.type))
        appendVarint(UInt64(key.partition.count), to: &out)
        out.append(contentsOf: key.partition)
        if let sortKey = table.sortKey {
            out.append(typeByte(sortKey.type))
            appendVarint(UInt64(key.sort.count), to: &out)
            out.append(contentsOf: key.sort)
        } else {
            out.append(0)
        }
        appendImage(newImage, to: &out)
        appendImage(oldImage, to: &out)
        return out
    }

    /// The `Record` of a stored row, compact or JSON.
    static func record(
        blob: [UInt8], sequence: Int64, created: Double, stream: StreamRow, region: String
    ) throws -> StreamsRecord {
        guard blob.first == format else { return try StreamsRecord(json: JSONValue(parsing: blob)) }
        var reader = Reader(bytes: blob, position: 1)
        let flags = try reader.byte()
        let event: StreamsOperationType
        switch flags & 3 {
        case 0: event = .insert
        case 1: event = .modify
        case 2: event = .remove
        default: throw EngineMessages.streamRecordUnreadable
        }
        let first = try reader.word()
        let second = try reader.word()
        let imageSize = try reader.varint()
        let partition = try reader.key()
        let sort = try reader.key()
        let newImage = try reader.image()
        let oldImage = try reader.image()
        var keys: Item = [:]
        if let (type, bytes) = partition, let value = KeyEncoding.decode(bytes, as: type) {
            keys[stream.partitionKey] = value
        }
        if let (type, bytes) = sort, let name = stream.sortKey, let value = KeyEncoding.decode(bytes, as: type) {
            keys[name] = value
        }
        let wanted = stream.sortKey == nil ? 1 : 2
        if keys.count < wanted, let image = newImage ?? oldImage {
            // A stored key that does not decode: the key attributes of the image.
            keys = image.filter { $0.key == stream.partitionKey || $0.key == stream.sortKey }
        }
        return StreamsRecord(
            eventID: eventID(first, second),
            eventName: event, eventVersion: "1.1", eventSource: "aws:dynamodb", awsRegion: region,
            dynamodb: StreamsStreamRecord(
                approximateCreationDateTime: Timestamp(secondsSince1970: created.rounded(.down)),
                keys: keys, newImage: newImage, oldImage: oldImage,
                sequenceNumber: StreamNames.sequenceNumber(sequence),
                sizeBytes: max(1, ItemSize.of(keys) + Int(clamping: imageSize)),
                streamViewType: StreamViewType(rawValue: stream.viewType)),
            userIdentity: flags & 4 != 0 ? StreamsIdentity(principalId: "dynamodb.amazonaws.com", type: "Service") : nil)
    }

    /// How many bytes a stored record counts for in GetRecords' 1 MB page.
    static func pageBytes(of blob: [UInt8]) -> Int {
        blob.first == format ? blob.count + envelopeBytes : blob.count
    }

    /// A record's event id from its two random words: 32 lowercase hex digits (a UUID's worth,
    /// without dashes).
    static func eventID(_ first: UInt64, _ second: UInt64) -> String {
        var text = ""
        text.reserveCapacity(32)
        for word in [first, second] {
            let hex = String(word, radix: 16)
            text.append(String(repeating: "0", count: 16 - hex.utf8.count))
            text.append(hex)
        }
        return text
    }

    private static func typeByte(_ type: KeyScalarType) -> UInt8 {
        type.rawValue.utf8.first ?? 0
    }

    private static func appendWord(_ word: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    private static func appendImage(_ image: [UInt8]?, to out: inout [UInt8]) {
        guard let image else { return out.append(0) }
        appendVarint(UInt64(image.count) + 1, to: &out)
        out.append(contentsOf: image)
    }

    private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    /// Reads a compact record's fields in order; a record that ends early or says something
    /// impossible is `streamRecordUnreadable`.
    private struct Reader {
        let bytes: [UInt8]
        var position: Int

        mutating func byte() throws -> UInt8 {
            guard position < bytes.count else { throw EngineMessages.streamRecordUnreadable }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func word() throws -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(try byte()) << UInt64(shift) }
            return value
        }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 64 else { throw EngineMessages.streamRecordUnreadable }
                value |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
            }
        }

        mutating func take(_ count: UInt64) throws -> [UInt8] {
            guard count <= UInt64(bytes.count - position) else { throw EngineMessages.streamRecordUnreadable }
            defer { position += Int(count) }
            return Array(bytes[position..<position + Int(count)])
        }

        /// A stored key part and its type, `nil` for type 0 (no sort key).
        mutating func key() throws -> (KeyScalarType, [UInt8])? {
            let code = try byte()
            if code == 0 { return nil }
            guard let type = KeyScalarType(rawValue: String(UnicodeScalar(code))) else {
                throw EngineMessages.streamRecordUnreadable
            }
            return (type, try take(try varint()))
        }

        /// An image's item, `nil` for length 0 (not in the record).
        mutating func image() throws -> Item? {
            let length = try varint()
            if length == 0 { return nil }
            return try AttributeValue.decodeItem(bytes: try take(length - 1))
        }
    }
}
