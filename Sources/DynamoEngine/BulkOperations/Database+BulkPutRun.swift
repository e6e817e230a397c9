import DynamoAPI
import DynamoExpressions
import Logging
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The background side of StartBulkPutItems.
///
/// Output layout under `OutputS3Configuration` (only the types named in `OutputType`):
/// ```
/// <prefix>/AWSDynamoDB/<operation id>/ERROR/part-00000.json                    one ERROR record a line
/// <prefix>/AWSDynamoDB/<operation id>/CONDITION_CHECK_FAILURE/part-00000.json  one record a line
/// <prefix>/AWSDynamoDB/<operation id>/manifest-summary.json                    status, counts, the objects above
/// ```
extension Database {
    /// How many input records one write transaction of a bulk put holds at most.
    static let bulkBatchSize = 100

    /// Runs on its own thread: reads every object under the input prefix (TotalInputBytes), then
    /// writes the records batch by batch, each batch one write transaction that also rewrites
    /// the operation's description (counts, bytes, usage), so a crash leaves counts that are
    /// exactly those of the items committed. Each record goes through PutItem's checks and the
    /// item store (indexes, statistics, streams, TTL); a record's condition is evaluated against
    /// the stored item. Before each batch the job stops if its cancellation was accepted, and
    /// `MaxWriteRequestUnits` paces it on the server clock: by the end of second `n` of the
    /// operation (counted from its start) it has used at most `(n + 1) × MaxWriteRequestUnits`
    /// write units (an item's units as PutItem counts them on the table).
    func runBulkPut(_ started: BulkOperationDescription) {
        var run = BulkPutRun(description: started)
        do {
            try run.prepare(self)
            try run.write(self)
        } catch {
            run.description.bulkOperationStatus = .failed
            (run.description.failureCode, run.description.failureMessage) = DataJobs.failure(error)
        }
        run.finish(self)
    }
}

/// One bulk put's state while it runs.
struct BulkPutRun {
    var description: BulkOperationDescription
    private var objects: [(key: String, entries: [BulkRecordParser.Entry])] = []
    private var errorRecords: [[UInt8]] = []
    private var conditionRecords: [[UInt8]] = []
    private var unitsUsed: Double = 0
    private var stopped = false
    /// The engine closed: the job left its record as the last batch stored it.
    private var abandoned = false

    init(description: BulkOperationDescription) {
        self.description = description
    }

    private var arn: String { description.bulkOperationArn ?? "" }
    private var tableName: String { description.tableDetails?.first?.tableName ?? "" }

    /// Reads and parses every input object, and records TotalInputBytes.
    mutating func prepare(_ database: Database) throws {
        let input = description.inputS3Configuration!
        let store = try database.dataJobs.store(holding: input.s3Bucket)
        let keys = try store.keys(bucket: input.s3Bucket, prefix: input.s3KeyPrefix ?? "")
        guard !keys.isEmpty else { throw ObjectStoreError(code: "S3NoSuchKey", message: BulkOperationWords.noInputObjects) }
        var total = 0
        for key in keys {
            let stored = try store.get(bucket: input.s3Bucket, key: key)
            total += stored.count
            let content: [UInt8]
            do {
                content = try (input.inputCompressionType ?? InputCompressionType.none).decompress(stored)
            } catch {
                var entry = BulkRecordParser.Entry(
                    line: 0, result: .failure(.init(description: BulkOperationWords.cannotDecompress("\(error)"))), raw: [], bytes: 0)
                entry.bytes = stored.count
                objects.append((key, [entry]))
                continue
            }
            var entries = BulkRecordParser.parse(content, format: input.inputFormat)
            Self.spread(stored.count, over: &entries)
            objects.append((key, entries))
        }
        description.totalInputBytes = total
        try save(database)
    }

    /// Stores the description unless the operation's cancellation was accepted meanwhile
    /// (then the job stops: ``stopped``).
    private mutating func save(_ database: Database) throws {
        let arn = arn
        let current = description
        stopped = try database.write { state in
            guard let stored = try Database.storedBulkOperation(arn, connection: state.connection) else { return false }
            if stored.bulkOperationStatus == .cancelling { return true }
            try Database.storeBulkOperation(current, connection: state.connection)
            return false
        }
    }

    /// Scales the entries' bytes (of the decompressed content) to the object's stored size, so
    /// ProcessedInputBytes reaches TotalInputBytes exactly.
    private static func spread(_ size: Int, over entries: inout [BulkRecordParser.Entry]) {
        let decompressed = entries.reduce(0) { $0 + $1.bytes }
        guard !entries.isEmpty else { return }
        guard decompressed > 0 else {
            entries[entries.count - 1].bytes = size
            return
        }
        var cumulative = 0
        var assigned = 0
        for index in entries.indices {
            cumulative += entries[index].bytes
            let upTo = Int((Double(cumulative) * Double(size) / Double(decompressed)).rounded(.down))
            entries[index].bytes = upTo - assigned
            assigned = upTo
        }
        entries[entries.count - 1].bytes += size - assigned
    }

    /// Writes every record, batch by batch, paced and cancellable.
    mutating func write(_ database: Database) throws {
        let startedAt = description.startTime?.secondsSince1970 ?? database.clock.now()
        let rate = description.maxWriteRequestUnits.map(Double.init)
        guard !stopped, let tableID = description.tableDetails?.first?.tableId else { return }
        for (key, entries) in objects {
            var position = 0
            while position < entries.count {
                if let rate {
                    let next = (try? entries[position].result.get()).map(Self.units) ?? 0
                    waitForBudget(database, rate: rate, since: startedAt, room: next)
                }
                if database.dataJobs.isStopping {
                    abandoned = true
                    return
                }
                let budget = rate.map { $0 * ((database.clock.now() - startedAt).rounded(.down) + 1) } ?? .infinity
                guard let table = database.cachedDefinition(tableName), table.tableID == tableID else {
                    throw StreamErrors.tableNotFound(tableName)
                }
                let consumed = try writeBatch(database, table: table, object: key, entries: entries, from: position, budget: budget)
                if stopped { return }
                position += consumed
            }
        }
    }

    /// Waits (polling the server clock) until the budget of the current second has room, or the
    /// operation's cancellation was accepted.
    private func waitForBudget(_ database: Database, rate: Double, since start: Double, room: Double) {
        while unitsUsed + max(room, 1) > rate * ((database.clock.now() - start).rounded(.down) + 1) {
            if database.dataJobs.cancelRequested(arn) || database.dataJobs.isStopping { return }
            usleep(2000)
        }
    }

    /// One write transaction: up to ``Database/bulkBatchSize`` records from `position`, fewer if
    /// the pacing budget runs out. Returns how many entries it consumed (none when it found the
    /// operation CANCELLING: then it recorded CANCELLED).
    private mutating func writeBatch(
        _ database: Database, table: TableDefinition, object: String,
        entries: [BulkRecordParser.Entry], from position: Int, budget: Double
    ) throws -> Int {
        let end = min(entries.count, position + Database.bulkBatchSize)
        let arn = arn
        let before = self
        do {
            return try database.write { state in
                guard let stored = try Database.storedBulkOperation(arn, connection: state.connection) else { return 0 }
                if stored.bulkOperationStatus == .cancelling {
                    stopped = true
                    return 0
                }
                let store = try database.itemStore(table, in: state)
                var index = position
                while index < end {
                    let entry = entries[index]
                    if case .success(let record) = entry.result, unitsUsed + Self.units(record) > budget, index > position {
                        break
                    }
                    try apply(entry, object: object, table: table, store: store, database: database, state: &state)
                    description.processedItemCount! += 1
                    description.processedInputBytes! += entry.bytes
                    index += 1
                }
                try Database.storeBulkOperation(description, connection: state.connection)
                return index - position
            }
        } catch {
            self = before
            throw error
        }
    }

    /// The write units a record's item costs.
    private static func units(_ record: BulkRecord) -> Double {
        Capacity.writeUnits(size: ItemSize.of(record.item))
    }

    /// Writes one record inside the batch's transaction (in a savepoint of its own, so a record
    /// that fails half-way leaves nothing), or reports it.
    private mutating func apply(
        _ entry: BulkRecordParser.Entry, object: String, table: TableDefinition, store: ItemStore,
        database: Database, state: inout Database.WriterState
    ) throws {
        let record: BulkRecord
        switch entry.result {
        case .failure(let failure):
            reportError(object: object, entry: entry, code: DynamoErrorCode.validation.rawValue, message: failure.description)
            return
        case .success(let parsed):
            record = parsed
        }
        let put = PutItemInput(
            tableName: table.name, item: record.item, conditionExpression: record.conditionExpression,
            expressionAttributeNames: record.names, expressionAttributeValues: record.values)
        let prepared: (key: StoredKey, json: [UInt8], size: Int, condition: ConditionCheck)
        do {
            let compiled = try Database.requestValidation { () throws(DynamoError) in try ExpressionCompiler.compile(ExpressionInput(put)) }
            try compiled.checkKeyAttributes(table.keyAttributes.map(\.name))
            let key = try table.storedKey(forItem: record.item)
            let size = ItemSize.of(record.item)
            if size > ItemSize.maximum { throw EngineMessages.itemTooLarge }
            try ItemSize.checkNesting(record.item)
            prepared = (key, ItemJSON.encode(record.item), size, ConditionCheck(compiled.condition, returnOnFailure: .allOld))
        } catch let error as DynamoError {
            reportError(object: object, entry: entry, code: error.code.rawValue, message: error.message ?? "")
            return
        }
        let connection = state.connection
        let statisticsBefore = state.statistics.tables
        let changesBefore = state.itemChanges.count
        try connection.statement("SAVEPOINT bulk_record").run()
        do {
            let old = try store.get(prepared.key)
            let oldItem = try prepared.condition.needsItem ? old.map { try AttributeValue.decodeItem(bytes: $0.json) } : nil
            do {
                try prepared.condition.verify(oldItem)
            } catch {
                try connection.statement("RELEASE bulk_record").run()
                if wants(.conditionCheckFailure) {
                    conditionRecords.append(
                        BulkOutputRecord.conditionFailure(object: object, line: entry.line, item: record.item, existing: oldItem))
                }
                return
            }
            _ = try store.put(prepared.key, json: prepared.json, size: prepared.size, replacing: old?.json, item: record.item)
            try database.recordChange(&state, table: table, store: store, key: prepared.key, old: old, new: (prepared.json, prepared.size))
            try connection.statement("RELEASE bulk_record").run()
            unitsUsed += Capacity.writeUnits(size: prepared.size)
            addUsage(table: table, item: record.item, size: prepared.size, connection: connection)
        } catch let error as DynamoError {
            try connection.statement("ROLLBACK TO bulk_record").run()
            try connection.statement("RELEASE bulk_record").run()
            state.statistics.tables = statisticsBefore
            state.itemChanges.removeSubrange(changesBefore...)
            reportError(object: object, entry: entry, code: error.code.rawValue, message: error.message ?? "")
        }
    }

    private func wants(_ type: OutputTypeEnum) -> Bool {
        description.outputS3Configuration?.outputType.contains(type) ?? false
    }

    private mutating func reportError(object: String, entry: BulkRecordParser.Entry, code: String, message: String) {
        description.failedItemCount! += 1
        if wants(.error) {
            errorRecords.append(BulkOutputRecord.error(object: object, line: entry.line, code: code, message: message, raw: entry.raw))
        }
    }

    /// BulkOperationUsage: the item's size on the table, its projection's on each index it has
    /// an entry in.
    private mutating func addUsage(table: TableDefinition, item: Item, size: Int, connection: SQLiteConnection) {
        var usage = description.bulkOperationUsage?.first ?? BulkOperationUsage(tableName: table.name)
        usage.table = BulkOperationBytes(bulkPutBytes: (usage.table?.bulkPutBytes ?? 0) + size)
        var total = (usage.bulkPutBytes ?? 0) + size
        func add(_ index: IndexDefinition, to map: inout [String: BulkOperationBytes]?) {
            guard (try? index.storedKey(of: item)) ?? nil != nil else { return }
            let bytes = ItemSize.of(IndexStore(table: table, index: index, connection: connection).project(item))
            var entries = map ?? [:]
            entries[index.name] = BulkOperationBytes(bulkPutBytes: (entries[index.name]?.bulkPutBytes ?? 0) + bytes)
            map = entries
            total += bytes
        }
        for index in table.globalIndexes { add(index, to: &usage.globalSecondaryIndexes) }
        for index in table.localIndexes { add(index, to: &usage.localSecondaryIndexes) }
        usage.bulkPutBytes = total
        description.bulkOperationUsage = [usage]
    }

    /// Writes the output records and the summary, then records the final status.
    mutating func finish(_ database: Database) {
        guard !abandoned else { return }
        if description.bulkOperationStatus != .failed {
            if stopped {
                description.bulkOperationStatus = .cancelled
                (description.failureCode, description.failureMessage) = (BulkOperationWords.cancelledCode, BulkOperationWords.cancelledMessage)
            } else {
                description.bulkOperationStatus = (description.failedItemCount ?? 0) > 0 ? .completedWithErrors : .completed
            }
            do {
                try writeOutput(database)
            } catch {
                description.bulkOperationStatus = .failed
                (description.failureCode, description.failureMessage) = DataJobs.failure(error)
            }
        }
        description.endTime = Timestamp(secondsSince1970: database.clock.now())
        let failed = description.bulkOperationStatus == .failed
        if failed {
            database.dataJobs.logger.warning("bulk operation failed", metadata: ["operation": "\(arn)", "code": "\(description.failureCode ?? "")"])
        }
        do {
            let arn = arn
            let final = description
            description = try database.write { state in
                var final = final
                // A cancellation accepted after the last batch: the operation ends CANCELLED.
                if try Database.storedBulkOperation(arn, connection: state.connection)?.bulkOperationStatus == .cancelling,
                    final.bulkOperationStatus != .failed
                {
                    final.bulkOperationStatus = .cancelled
                    (final.failureCode, final.failureMessage) = (BulkOperationWords.cancelledCode, BulkOperationWords.cancelledMessage)
                }
                try Database.storeBulkOperation(final, connection: state.connection)
                return final
            }
        } catch {
            database.dataJobs.logger.error("cannot record bulk operation", metadata: ["operation": "\(arn)", "error": "\(error)"])
        }
    }

    private func writeOutput(_ database: Database) throws {
        guard let output = description.outputS3Configuration, let bucket = output.s3Bucket else { return }
        let store = try database.dataJobs.store(holding: bucket).forRegion(database.region)
        let options = ObjectWriteOptions(
            serverSideEncryption: output.s3SseAlgorithm.map { $0 == .kms ? "aws:kms" : "AES256" }, kmsKeyID: output.s3SseKmsKeyId,
            expectedBucketOwner: output.s3BucketOwner)
        let id = arn.components(separatedBy: "/bulk-operation/").last ?? ""
        let prefix = (output.s3KeyPrefix ?? "").split(separator: "/").joined(separator: "/")
        let base = (prefix.isEmpty ? "" : prefix + "/") + "AWSDynamoDB/\(id)/"
        var files: [JSONValue] = []
        for (type, records) in [(OutputTypeEnum.error, errorRecords), (.conditionCheckFailure, conditionRecords)]
        where wants(type) && !records.isEmpty {
            let key = base + "\(type.rawValue)/part-00000.json"
            var bytes: [UInt8] = []
            for record in records {
                bytes += record
                bytes.append(UInt8(ascii: "\n"))
            }
            try store.put(bucket: bucket, key: key, bytes: bytes, options: options)
            files.append(.object(["OutputType": .string(type.rawValue), "S3Key": .string(key), "RecordCount": .number(String(records.count))]))
        }
        let summary: JSONValue = .object([
            "BulkOperationArn": .string(arn), "BulkOperationStatus": .string(description.bulkOperationStatus?.rawValue ?? ""),
            "ProcessedItemCount": .number(String(description.processedItemCount ?? 0)),
            "FailedItemCount": .number(String(description.failedItemCount ?? 0)),
            "ConditionCheckFailureCount": .number(String(conditionRecords.count)),
            "OutputFiles": .array(files),
        ])
        try store.put(bucket: bucket, key: base + "manifest-summary.json", bytes: Array(summary.serialized.utf8), options: options)
    }
}
