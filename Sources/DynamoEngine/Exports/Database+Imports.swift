import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Database {
    static let importKind = "IMPORT"

    /// ImportTable: validates the table parameters as CreateTable does, records the import
    /// `IN_PROGRESS` and runs it in the background (``runImport(_:definition:)``).
    package func importTable(_ input: ImportTableInput, now: Double) throws -> ImportTableOutput {
        let parameters = input.tableCreationParameters
        if let token = input.clientToken,
            let earlier = try imports().first(where: { $0.clientToken == token })
        {
            guard earlier.tableCreationParameters?.tableName == parameters.tableName else {
                throw EngineMessages.importConflict
            }
            return ImportTableOutput(importTableDescription: earlier)
        }
        if cachedDefinition(parameters.tableName) != nil {
            throw EngineMessages.tableAlreadyExists(parameters.tableName, code: .resourceInUse)
        }
        if let delimiter = input.inputFormatOptions?.csv?.delimiter, delimiter.utf8.count != 1 {
            throw EngineMessages.csvDelimiterSingleCharacter
        }
        let creation = CreateTableInput(
            attributeDefinitions: parameters.attributeDefinitions, tableName: parameters.tableName,
            keySchema: parameters.keySchema, globalSecondaryIndexes: parameters.globalSecondaryIndexes,
            billingMode: parameters.billingMode, provisionedThroughput: parameters.provisionedThroughput,
            sseSpecification: parameters.sseSpecification, onDemandThroughput: parameters.onDemandThroughput,
            vectorIndexes: parameters.vectorIndexes)
        let definition = try Self.validatedDefinition(creation, now: now)
        let tableARN = Self.arn(region, parameters.tableName)
        var description = ImportTableDescription()
        description.importArn = "\(tableARN)/import/\(TimestampedID.make(now: now))"
        description.importStatus = .inProgress
        description.tableArn = tableARN
        description.tableId = definition.tableID
        description.clientToken = input.clientToken
        description.s3BucketSource = input.s3BucketSource
        description.errorCount = 0
        description.cloudWatchLogGroupArn = "arn:aws:logs:\(region):\(ResourceNames.accountID):log-group:/aws-dynamodb/imports:*"
        description.inputFormat = input.inputFormat
        description.inputFormatOptions = input.inputFormatOptions
        description.inputCompressionType = input.inputCompressionType ?? InputCompressionType.none
        description.tableCreationParameters = parameters
        description.startTime = Timestamp(secondsSince1970: now)
        description.processedSizeBytes = 0
        description.processedItemCount = 0
        description.importedItemCount = 0
        dataJobs.claim(description.importArn!)
        try saveJob(arn: description.importArn!, kind: Self.importKind, started: now, description: description.jsonBytes)
        let started = description
        dataJobs.start(started.importArn!) { [self] in runImport(started, definition: definition) }
        return ImportTableOutput(importTableDescription: description)
    }

    /// DescribeImport.
    package func describeImport(_ input: DescribeImportInput) throws -> DescribeImportOutput {
        guard input.importArn.hasPrefix("arn:"), input.importArn.contains("/import/") else {
            throw EngineMessages.invalidImportArn
        }
        guard let found = try imports().first(where: { $0.importArn == input.importArn }) else {
            throw EngineMessages.importNotFound(importArn: input.importArn)
        }
        return DescribeImportOutput(importTableDescription: found)
    }

    /// ListImports: oldest first, `PageSize` (default 25) a page, `NextToken` the last ARN.
    package func listImports(_ input: ListImportsInput) throws -> ListImportsOutput {
        var all = try imports()
        if let table = input.tableArn {
            let tableARN = Self.arn(region, TableReference.name(from: table))
            all = all.filter { $0.tableArn == tableARN }
        }
        let (page, next) = try Self.page(all, after: input.nextToken, size: input.pageSize ?? 25) { $0.importArn }
        return ListImportsOutput(
            importSummaryList: page.map {
                ImportSummary(
                    importArn: $0.importArn, importStatus: $0.importStatus, tableArn: $0.tableArn,
                    s3BucketSource: $0.s3BucketSource, cloudWatchLogGroupArn: $0.cloudWatchLogGroupArn,
                    inputFormat: $0.inputFormat, startTime: $0.startTime, endTime: $0.endTime)
            },
            nextToken: next)
    }

    private func imports() throws -> [ImportTableDescription] {
        try jobs(kind: Self.importKind).map { job in
            var description = try ImportTableDescription(json: job.description)
            if description.importStatus == .inProgress, !dataJobs.startedHere(job.arn) {
                description.importStatus = .failed
                description.failureCode = "UNKNOWN"
                description.failureMessage = DataJobs.interrupted
            }
            return description
        }
    }
}
