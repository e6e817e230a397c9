import DynamoAPI
import Logging
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writing an export, in the layout DynamoDB writes to S3:
///
/// ```
/// <prefix>/AWSDynamoDB/<export id>/_started                  empty, written first
/// <prefix>/AWSDynamoDB/<export id>/data/<name>.json.gz       (.ion.gz for ION) one item a line
/// <prefix>/AWSDynamoDB/<export id>/manifest-files.json       one line per data file
/// <prefix>/AWSDynamoDB/<export id>/manifest-files.md5        its MD5, base64
/// <prefix>/AWSDynamoDB/<export id>/manifest-summary.json     the export's summary
/// <prefix>/AWSDynamoDB/<export id>/manifest-summary.md5      its MD5, base64
/// ```
///
/// The checksum files are named `.md5` and hold the base64 MD5, as the service writes them
/// (observed on real exports; the developer guide's `.checksum` names are not what it writes).
extension Database {
    /// Runs on the jobs' queue: reads the table as of the export time inside one read
    /// transaction (its current rows with the later changes undone), writes the files and
    /// records the export COMPLETED, or FAILED with S3's error code.
    func runExport(_ started: ExportDescription, table: TableDefinition) {
        var description = started
        do {
            let bucket = started.s3Bucket ?? ""
            let store = try dataJobs.store(holding: bucket)
            let options = ObjectWriteOptions(
                serverSideEncryption: started.s3SseAlgorithm == .kms ? "aws:kms" : "AES256",
                kmsKeyID: started.s3SseAlgorithm == .kms ? started.s3SseKmsKeyId : nil,
                expectedBucketOwner: started.s3BucketOwner)
            let exportID = String(started.exportArn!.split(separator: "/").last!)
            let prefix = (started.s3Prefix ?? "").split(separator: "/").joined(separator: "/")
            let base = (prefix.isEmpty ? "" : prefix + "/") + "AWSDynamoDB/\(exportID)/"
            try store.put(bucket: bucket, key: base + "_started", bytes: [], options: options)
            let ion = started.exportFormat == .ion
            let content = try read { connection in
                try connection.readTransaction { try exportLines(started, table: table, ion: ion, connection: connection) }
            }
            let dataKey = base + "data/\(UUID().uuidString.lowercased().filter { $0 != "-" })" + (ion ? ".ion.gz" : ".json.gz")
            let compressed = try Gzip.compress(content.bytes)
            try store.put(bucket: bucket, key: dataKey, bytes: compressed, options: options)
            var files = JSONWriter()
            files.writeRaw(UInt8(ascii: "{"))
            files.writeKey("itemCount", first: true); files.write(content.count)
            files.writeKey("md5Checksum", first: false)
            files.write(string: Data(MD5.digest(compressed)).base64EncodedString())
            files.writeKey("etag", first: false); files.write(string: MD5.hex(compressed))
            files.writeKey("dataFileS3Key", first: false); files.write(string: dataKey)
            files.writeRaw(Array("}\n".utf8))
            try putWithChecksum(store, bucket: bucket, key: base + "manifest-files", bytes: files.bytes, options: options)

            description.exportStatus = .completed
            description.endTime = Timestamp(secondsSince1970: clock.now())
            description.itemCount = content.count
            description.billedSizeBytes = content.bytes.count
            description.exportManifest = base + "manifest-summary.json"
            let summary = Self.manifestSummary(description, filesKey: base + "manifest-files.json")
            try putWithChecksum(store, bucket: bucket, key: base + "manifest-summary", bytes: summary, options: options)
        } catch {
            description.exportStatus = .failed
            description.endTime = Timestamp(secondsSince1970: clock.now())
            let failure = DataJobs.failure(error)
            description.failureCode = failure.code.hasPrefix("S3") || failure.code == "UNKNOWN" ? failure.code : "S3\(failure.code)"
            description.failureMessage = failure.message
        }
        finishJob(
            arn: description.exportArn!, kind: Self.exportKind, started: description.startTime,
            description: description.jsonBytes, failed: description.exportStatus == .failed)
    }

    private func putWithChecksum(
        _ store: any ObjectStore, bucket: String, key: String, bytes: [UInt8],
        options: ObjectWriteOptions
    ) throws {
        try store.put(bucket: bucket, key: key + ".json", bytes: bytes, options: options)
        try store.put(
            bucket: bucket, key: key + ".md5", bytes: Array(Data(MD5.digest(bytes)).base64EncodedString().utf8),
            options: options)
    }

    /// The export's lines (uncompressed) and how many there are.
    private func exportLines(
        _ export: ExportDescription, table: TableDefinition, ion: Bool,
        connection: SQLiteConnection
    ) throws -> (bytes: [UInt8], count: Int) {
        guard cachedDefinition(table.name)?.storageID == table.storageID else {
            throw EngineMessages.tableNotFound(name: table.name)
        }
        var out: [UInt8] = ion ? Array("\(IonText.versionMarker)\n".utf8) : []
        var count = 0
        let filter = try ExportFilter(export.filterSpecification, table: table)
        if export.exportType == .incrementalExport, let specification = export.incrementalExportSpecification {
            let from = specification.exportFromTime!.secondsSince1970
            let to = specification.exportToTime!.secondsSince1970
            let withOld = specification.exportViewType != .newImage
            let before = try imagesBefore(storageID: table.storageID, after: from, connection: connection)
            let after = try imagesBefore(storageID: table.storageID, after: to, connection: connection)
            let store = ItemStore(table: table, connection: connection)
            for (key, micros) in try changedKeys(storageID: table.storageID, from: from, to: to, connection: connection) {
                let newImage: [UInt8]? = try after[key] ?? store.get(key)?.json
                let oldImage = before[key] ?? nil
                guard let any = newImage ?? oldImage else { continue }
                // The filter reads the newest image, a deleted item's old one (the developer guide).
                let latest = try Self.item(any)
                if let filter, !filter.admits(key: key, item: latest) { continue }
                var images: [(String, Item)] = []
                if let newImage { images.append(("NewImage", try Self.item(newImage))) }
                if withOld, let oldImage { images.append(("OldImage", try Self.item(oldImage))) }
                if let filter { images = images.map { ($0.0, filter.projected($0.1)) } }
                let keys: [(String, AttributeValue)] = [("Keys", .m(table.keyOnly(latest)))]
                let fields: [(String, AttributeValue)] =
                    [("Metadata", .m(["WriteTimestampMicros": .n(DynamoNumber(Int(micros)))]))]
                    + keys + images.map { ($0.0, AttributeValue.m($0.1)) }
                out += Self.line(fields, ion: ion)
                count += 1
            }
            return (out, count)
        }
        let time = export.exportTime?.secondsSince1970 ?? clock.now()
        let changed = try imagesBefore(storageID: table.storageID, after: time, connection: connection)
        let rows = try connection.statement("SELECT hash, pk, sk, item FROM items_\(table.storageID)")
        while try rows.step() {
            let key = StoredKey(hash: rows.int64(0), partition: rows.blob(1), sort: rows.blob(2))
            guard changed[key] == nil else { continue }
            if let filter {
                let item = try Self.item(rows.blob(3))
                guard filter.admits(key: key, item: item) else { continue }
                out += Self.line([("Item", .m(filter.projected(item)))], ion: ion)
            } else {
                out +=
                    ion
                    ? Self.line([("Item", .m(try Self.item(rows.blob(3))))], ion: true)
                    : Array(#"{"Item":"#.utf8) + rows.blob(3) + Array("}\n".utf8)
            }
            count += 1
        }
        for case let (key, image?) in changed {
            let item = try Self.item(image)
            if let filter, !filter.admits(key: key, item: item) { continue }
            out += Self.line([("Item", .m(filter?.projected(item) ?? item))], ion: ion)
            count += 1
        }
        return (out, count)
    }

    /// One line: a JSON object or Ion struct of the named attribute-value members.
    private static func line(_ fields: [(String, AttributeValue)], ion: Bool) -> [UInt8] {
        if ion {
            var text = "{"
            for (position, field) in fields.enumerated() {
                if position > 0 { text += "," }
                text += field.0 + ":"
                guard case .m(let map) = field.1 else { continue }
                IonText.writeStruct(map, to: &text)
            }
            return Array((text + "}\n").utf8)
        }
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "{"))
        for (position, field) in fields.enumerated() {
            writer.writeKey(field.0, first: position == 0)
            guard case .m(let map) = field.1 else { continue }
            AttributeValue.encode(item: map, to: &writer)
        }
        writer.writeRaw(Array("}\n".utf8))
        return writer.bytes
    }

    static func item(_ json: [UInt8]) throws -> Item {
        try AttributeValue.decodeItem(bytes: json)
    }

    /// The keys changed in `(from, to]`, with their last change's time in microseconds.
    private func changedKeys(
        storageID: Int64, from: Double, to: Double,
        connection: SQLiteConnection
    ) throws -> [(StoredKey, Int64)] {
        let statement = try connection.statement(
            """
            SELECT hash, pk, sk, max(time_micros) FROM pitr_log
            WHERE storage_id = ? AND time_micros > ? AND time_micros <= ? GROUP BY hash, pk, sk
            """
        ).bind(.integer(storageID), .integer(Micros.from(from)), .integer(Micros.from(to)))
        var keys: [(StoredKey, Int64)] = []
        while try statement.step() {
            keys.append(
                (
                    StoredKey(hash: statement.int64(0), partition: statement.blob(1), sort: statement.blob(2)),
                    statement.int64(3)
                ))
        }
        return keys
    }

    /// `manifest-summary.json`.
    private static func manifestSummary(_ export: ExportDescription, filesKey: String) -> [UInt8] {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        func time(_ stamp: Timestamp?) -> String? { stamp.map { style.format($0.date) } }
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "{"))
        let members: [(String, String?)] = [
            ("version", export.exportType == .incrementalExport ? "2023-08-01" : "2020-06-30"),
            ("exportArn", export.exportArn), ("startTime", time(export.startTime)), ("endTime", time(export.endTime)),
            ("tableArn", export.tableArn), ("tableId", export.tableId), ("exportTime", time(export.exportTime)),
            ("exportFromTime", time(export.incrementalExportSpecification?.exportFromTime)),
            ("exportToTime", time(export.incrementalExportSpecification?.exportToTime)),
            ("s3Bucket", export.s3Bucket), ("s3Prefix", export.s3Prefix),
            ("s3SseAlgorithm", export.s3SseAlgorithm?.rawValue), ("s3SseKmsKeyId", export.s3SseKmsKeyId),
            ("manifestFilesS3Key", filesKey), ("outputFormat", export.exportFormat?.rawValue),
            ("outputView", export.incrementalExportSpecification?.exportViewType?.rawValue),
            ("exportType", export.exportType?.rawValue),
        ]
        for (position, member) in members.enumerated() {
            writer.writeKey(member.0, first: position == 0)
            if let value = member.1 { writer.write(string: value) } else { writer.writeRaw(Array("null".utf8)) }
        }
        writer.writeKey("billedSizeBytes", first: false); writer.write(export.billedSizeBytes ?? 0)
        writer.writeKey("itemCount", first: false); writer.write(export.itemCount ?? 0)
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.bytes
    }
}
