import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// StartBulkPutItems, DescribeBulkOperation, ListBulkOperations and CancelBulkOperation: loads of
/// items from S3 into an existing table, run in the background on the server clock
/// (``runBulkPut(_:)``). Descriptions live in `data_jobs` (kind `BULK`), the generated shape's
/// JSON, rewritten in the transaction of every batch the job writes.
extension Database {
    static let bulkKind = "BULK"

    /// How long a `ClientToken` names its operation (the API reference: "During the 8 hours after
    /// the initial request").
    static let bulkTokenLifetime: Double = 8 * 3600

    /// How long ListBulkOperations lists an operation ("started within the past 90 days").
    static let bulkListingWindow: Double = 90 * 86400

    /// How many operations may be IN_PROGRESS or CANCELLING at once in a namespace (the guide
    /// names a quota on concurrent operations without its value here; 50 as for ImportTable).
    static let bulkConcurrencyLimit = 50

    /// StartBulkPutItems: checks the request, then records the operation IN_PROGRESS and starts
    /// it in the background. Order: the output configuration, the token (the same parameters
    /// within 8 hours answer the same operation, others IdempotentParameterMismatchException),
    /// the table (ResourceNotFoundException; ResourceInUseException while an index is created or
    /// deleted or for a global table), the number of running operations (LimitExceededException).
    package func startBulkPutItems(_ input: StartBulkPutItemsInput, now: Double) throws -> StartBulkPutItemsOutput {
        let output = input.outputS3Configuration
        guard output.s3Bucket != nil else { throw EngineMessages.bulkOutputBucketRequired }
        guard !output.outputType.isEmpty else { throw EngineMessages.bulkOutputTypeRequired }
        var seen: Set<OutputTypeEnum> = []
        for type in output.outputType where !seen.insert(type).inserted || ![OutputTypeEnum.error, .conditionCheckFailure].contains(type) {
            throw EngineMessages.bulkOutputTypeInvalid(type.rawValue)
        }
        if output.s3SseAlgorithm == .aes256, output.s3SseKmsKeyId != nil { throw EngineMessages.bulkKmsKeyWithAES256 }
        let name = TableReference.name(from: input.tableName)
        let parameters = Self.bulkParameters(input, table: name)
        let operations = try bulkOperations(now: now)
        if let token = input.clientToken,
            let earlier = operations.first(where: { $0.clientToken == token && now - ($0.startTime?.secondsSince1970 ?? 0) < Self.bulkTokenLifetime })
        {
            guard Self.bulkParameters(of: earlier) == parameters else { throw EngineMessages.bulkIdempotentMismatch }
            return StartBulkPutItemsOutput(bulkOperationDescription: earlier)
        }
        guard let table = cachedDefinition(name) else { throw StreamErrors.tableNotFound(name) }
        if let index = (table.globalIndexes + table.localIndexes).first(where: { $0.status != .active }) {
            throw EngineMessages.bulkTableNotReady(name, reason: "index \(index.name) is \(index.status.rawValue)")
        }
        if table.settings?.replication != nil { throw EngineMessages.bulkTableNotReady(name, reason: "it is part of a global table") }
        let running = operations.filter { $0.bulkOperationStatus == .inProgress || $0.bulkOperationStatus == .cancelling }
        guard running.count < Self.bulkConcurrencyLimit else { throw EngineMessages.bulkTooManyOperations(limit: Self.bulkConcurrencyLimit) }

        var description = BulkOperationDescription()
        description.bulkOperationArn = "\(Self.arn(region, name))/bulk-operation/\(TimestampedID.make(now: now))"
        description.bulkOperationStatus = .inProgress
        description.tableDetails = [BulkOperationTableDetail(tableName: name, tableId: table.tableID)]
        description.clientToken = input.clientToken
        description.inputS3Configuration = parameters.input
        description.outputS3Configuration = output
        description.startTime = Timestamp(secondsSince1970: now)
        description.processedItemCount = 0
        description.processedInputBytes = 0
        description.failedItemCount = 0
        description.bulkOperationUsage = [BulkOperationUsage(tableName: name, bulkPutBytes: 0, table: BulkOperationBytes(bulkPutBytes: 0))]
        description.maxWriteRequestUnits = input.maxWriteRequestUnits
        description.performanceTier = parameters.tier
        let arn = description.bulkOperationArn!
        dataJobs.claim(arn)
        try saveJob(arn: arn, kind: Self.bulkKind, started: now, description: description.jsonBytes)
        let started = description
        dataJobs.startBulk { [self] in runBulkPut(started) }
        return StartBulkPutItemsOutput(bulkOperationDescription: description)
    }

    /// DescribeBulkOperation.
    package func describeBulkOperation(_ input: DescribeBulkOperationInput) throws -> DescribeBulkOperationOutput {
        DescribeBulkOperationOutput(bulkOperationDescription: try bulkOperation(input.bulkOperationArn))
    }

    /// ListBulkOperations: the operations started within the past 90 days, newest first,
    /// `MaxResults` (default 10) a page; `NextToken` is the hex of the last listed ARN.
    package func listBulkOperations(_ input: ListBulkOperationsInput, now: Double) throws -> ListBulkOperationsOutput {
        let all = try bulkOperations(now: now).filter { now - ($0.startTime?.secondsSince1970 ?? 0) <= Self.bulkListingWindow }.reversed()
        let after = try input.nextToken.map { token throws(DynamoError) -> String in
            guard let arn = BulkPageToken.arn(from: token) else { throw EngineMessages.invalidNextToken }
            return arn
        }
        let (page, next) = try Self.page(Array(all), after: after, size: input.maxResults ?? 10) { $0.bulkOperationArn }
        return ListBulkOperationsOutput(
            bulkOperationsSummaryList: page.map {
                BulkOperationSummary(
                    bulkOperationArn: $0.bulkOperationArn ?? "", bulkOperationStatus: $0.bulkOperationStatus ?? .inProgress,
                    startTime: $0.startTime ?? Timestamp(secondsSince1970: 0), endTime: $0.endTime)
            },
            nextToken: next.map(BulkPageToken.token(for:)))
    }

    /// CancelBulkOperation: an IN_PROGRESS operation becomes CANCELLING at once; the job stops
    /// before its next batch and records CANCELLED (what it wrote stays). Cancelling one that is
    /// already CANCELLING answers CANCELLING again; a finished one is refused.
    package func cancelBulkOperation(_ input: CancelBulkOperationInput) throws -> CancelBulkOperationOutput {
        let arn = input.bulkOperationArn
        _ = try bulkOperation(arn)
        return try write { state in
            guard var stored = try Self.storedBulkOperation(arn, connection: state.connection) else {
                throw EngineMessages.bulkOperationNotFound(arn)
            }
            switch stored.bulkOperationStatus {
            case .inProgress?:
                stored.bulkOperationStatus = .cancelling
                try Self.storeBulkOperation(stored, connection: state.connection)
                dataJobs.requestCancel(arn)
            case .cancelling?:
                break
            default:
                throw EngineMessages.bulkOperationNotCancellable(arn, status: stored.bulkOperationStatus?.rawValue ?? "")
            }
            return CancelBulkOperationOutput(bulkOperationArn: arn, bulkOperationStatus: .cancelling)
        }
    }

    /// The operation an ARN names (ValidationException for what is not a bulk operation's ARN,
    /// ResourceNotFoundException for one that does not exist).
    func bulkOperation(_ arn: String) throws -> BulkOperationDescription {
        guard arn.hasPrefix("arn:"), arn.contains("/bulk-operation/") else { throw EngineMessages.invalidBulkOperationArn }
        guard let found = try bulkOperations(now: clock.now()).first(where: { $0.bulkOperationArn == arn }) else {
            throw EngineMessages.bulkOperationNotFound(arn)
        }
        return found
    }

    /// Every stored operation, oldest first. An operation recorded IN_PROGRESS or CANCELLING
    /// that this process did not start was cut short by a restart: it is settled here, once,
    /// as FAILED (or CANCELLED, when its cancellation had been accepted) with the counts of the
    /// batches it committed, which are exact (each batch's items and counts commit together).
    func bulkOperations(now: Double) throws -> [BulkOperationDescription] {
        var operations = try jobs(kind: Self.bulkKind).map { try BulkOperationDescription(json: $0.description) }
        let interrupted = operations.indices.filter { index in
            let status = operations[index].bulkOperationStatus
            return (status == .inProgress || status == .cancelling) && !dataJobs.startedHere(operations[index].bulkOperationArn ?? "")
        }
        guard !interrupted.isEmpty else { return operations }
        try write { state in
            for index in interrupted {
                guard var stored = try Self.storedBulkOperation(operations[index].bulkOperationArn ?? "", connection: state.connection) else {
                    continue
                }
                if stored.bulkOperationStatus == .cancelling {
                    stored.bulkOperationStatus = .cancelled
                    (stored.failureCode, stored.failureMessage) = (BulkOperationWords.cancelledCode, BulkOperationWords.cancelledMessage)
                } else if stored.bulkOperationStatus == .inProgress {
                    stored.bulkOperationStatus = .failed
                    (stored.failureCode, stored.failureMessage) = (BulkOperationWords.interruptedCode, BulkOperationWords.interruptedMessage)
                }
                stored.endTime = stored.endTime ?? Timestamp(secondsSince1970: now)
                try Self.storeBulkOperation(stored, connection: state.connection)
                operations[index] = stored
            }
        }
        return operations
    }

    /// Reads one stored description inside a write transaction.
    static func storedBulkOperation(_ arn: String, connection: SQLiteConnection) throws -> BulkOperationDescription? {
        let statement = try connection.statement("SELECT record FROM data_jobs WHERE arn = ? AND kind = ?").bind(.text(arn), .text(bulkKind))
        guard try statement.step() else { return nil }
        let description = try BulkOperationDescription(json: try JSONValue(parsing: statement.blob(0)))
        statement.reset()
        return description
    }

    /// Rewrites one stored description inside a write transaction (its start time unchanged).
    static func storeBulkOperation(_ description: BulkOperationDescription, connection: SQLiteConnection) throws {
        try connection.statement("UPDATE data_jobs SET record = ? WHERE arn = ? AND kind = ?")
            .bind(.blob(description.jsonBytes), .text(description.bulkOperationArn ?? ""), .text(bulkKind)).run()
    }

    /// The parameters a token is compared on, with the service's defaults filled in (an omitted
    /// compression is NONE, an omitted tier STANDARD), and the table by name.
    struct BulkParameters: Equatable {
        var table: String
        var input: InputS3Configuration
        var output: OutputS3Configuration
        var maxWriteRequestUnits: Int?
        var tier: BulkOperationPerformanceTier
    }

    static func bulkParameters(_ request: StartBulkPutItemsInput, table: String) -> BulkParameters {
        var input = request.inputS3Configuration
        input.inputCompressionType = input.inputCompressionType ?? InputCompressionType.none
        return BulkParameters(
            table: table, input: input, output: request.outputS3Configuration,
            maxWriteRequestUnits: request.maxWriteRequestUnits, tier: request.performanceTier ?? .standard)
    }

    static func bulkParameters(of description: BulkOperationDescription) -> BulkParameters? {
        guard let input = description.inputS3Configuration, let output = description.outputS3Configuration else { return nil }
        return BulkParameters(
            table: description.tableDetails?.first?.tableName ?? "", input: input, output: output,
            maxWriteRequestUnits: description.maxWriteRequestUnits, tier: description.performanceTier ?? .standard)
    }
}

/// ListBulkOperations' `NextToken`: the last listed ARN's UTF-8 bytes in hex, padded with zero
/// bytes to a multiple of eight (the model's pattern is `([0-9a-f]{16})+`).
enum BulkPageToken {
    static func token(for arn: String) -> String {
        var bytes = Array(arn.utf8)
        while bytes.count % 8 != 0 { bytes.append(0) }
        return bytes.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    static func arn(from token: String) -> String? {
        let digits = Array(token.utf8)
        guard !digits.isEmpty, digits.count % 16 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
            index += 2
        }
        while bytes.last == 0 { bytes.removeLast() }
        return String(validating: bytes, as: UTF8.self)
    }
}
