import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Database {
    static let exportKind = "EXPORT"

    /// ExportTableToPointInTime: checks the request (its `FilterSpecification` as ``ExportFilter``
    /// compiles it), records the export `IN_PROGRESS` and writes it in the background
    /// (``runExport(_:table:)``); DescribeExport follows it.
    package func exportTableToPointInTime(
        _ input: ExportTableToPointInTimeInput,
        now: Double
    ) throws -> ExportTableToPointInTimeOutput {
        // A bare name is refused, and a missing table is named by the ARN given (the ack-api-quirks
        // measurements of 2026-10-09, DDB-EXPORT-001).
        guard input.tableArn.hasPrefix("arn:") else { throw EngineMessages.exportTableArnNotAnARN }
        let name = TableReference.name(from: input.tableArn)
        guard let table = cachedDefinition(name) else {
            throw EngineMessages.tableNotFound(name: input.tableArn)
        }
        guard let settings = table.pointInTimeRecovery else {
            throw EngineMessages.pointInTimeRecoveryNotEnabled(name: name)
        }
        let type = input.exportType ?? .fullExport
        let earliest = settings.earliestRestorable(now: now)
        if type == .incrementalExport {
            guard input.exportTime == nil else {
                throw EngineMessages.exportTimeOnIncrementalExport
            }
            guard let specification = input.incrementalExportSpecification,
                let from = specification.exportFromTime?.secondsSince1970,
                let to = specification.exportToTime?.secondsSince1970
            else {
                throw EngineMessages.incrementalExportTimesRequired
            }
            guard from >= earliest.rounded(.down), to <= now else {
                throw EngineMessages.exportPeriodOutsideRecoveryWindow
            }
            guard to - from >= 15 * 60, to - from <= 24 * 3600 else {
                throw EngineMessages.exportPeriodLength
            }
        } else if input.incrementalExportSpecification != nil {
            throw EngineMessages.incrementalSpecificationOnFullExport
        } else if let time = input.exportTime?.secondsSince1970, time < earliest.rounded(.down) || time > now {
            throw EngineMessages.exportTimeOutsideRecoveryWindow
        }
        // The filter's expressions are checked as a Query's or a Scan's, against the table's keys.
        _ = try ExportFilter(input.filterSpecification, table: table)
        if let token = input.clientToken,
            let earlier = try exports().first(where: { $0.clientToken == token && $0.tableArn == Self.arn(region, name) })
        {
            return ExportTableToPointInTimeOutput(exportDescription: earlier)
        }

        let tableARN = Self.arn(region, name)
        var description = ExportDescription()
        description.exportArn = "\(tableARN)/export/\(TimestampedID.make(now: now))"
        description.exportStatus = .inProgress
        description.startTime = Timestamp(secondsSince1970: now)
        description.tableArn = tableARN
        description.tableId = table.tableID
        description.exportTime = type == .fullExport ? Timestamp(secondsSince1970: input.exportTime?.secondsSince1970 ?? now) : nil
        description.clientToken = input.clientToken
        description.s3Bucket = input.s3Bucket
        description.s3BucketOwner = input.s3BucketOwner
        description.s3Prefix = input.s3Prefix
        description.s3SseAlgorithm = input.s3SseAlgorithm ?? .aes256
        description.s3SseKmsKeyId = input.s3SseKmsKeyId
        description.exportFormat = input.exportFormat ?? .dynamodbJson
        description.exportType = type
        description.filterSpecification = input.filterSpecification
        if type == .incrementalExport, var specification = input.incrementalExportSpecification {
            specification.exportViewType = specification.exportViewType ?? .newAndOldImages
            description.incrementalExportSpecification = specification
        }
        dataJobs.claim(description.exportArn!)
        try saveJob(arn: description.exportArn!, kind: Self.exportKind, started: now, description: description.jsonBytes)
        let started = description
        dataJobs.start(started.exportArn!) { [self] in runExport(started, table: table) }
        return ExportTableToPointInTimeOutput(exportDescription: description)
    }

    /// DescribeExport.
    package func describeExport(_ input: DescribeExportInput) throws -> DescribeExportOutput {
        guard input.exportArn.hasPrefix("arn:"), input.exportArn.contains("/export/") else {
            throw EngineMessages.invalidExportArn
        }
        guard let found = try exports().first(where: { $0.exportArn == input.exportArn }) else {
            throw EngineMessages.exportNotFound(exportArn: input.exportArn)
        }
        return DescribeExportOutput(exportDescription: found)
    }

    /// ListExports: oldest first, `MaxResults` (default 25) a page, `NextToken` the last ARN.
    package func listExports(_ input: ListExportsInput) throws -> ListExportsOutput {
        var all = try exports()
        if let table = input.tableArn {
            let tableARN = Self.arn(region, TableReference.name(from: table))
            all = all.filter { $0.tableArn == tableARN }
        }
        let (page, next) = try Self.page(all, after: input.nextToken, size: input.maxResults ?? 25) { $0.exportArn }
        return ListExportsOutput(
            exportSummaries: page.map {
                ExportSummary(
                    exportArn: $0.exportArn, exportStatus: $0.exportStatus,
                    exportType: $0.exportType)
            },
            nextToken: next)
    }

    private func exports() throws -> [ExportDescription] {
        try jobs(kind: Self.exportKind).map { job in
            var description = try ExportDescription(json: job.description)
            if description.exportStatus == .inProgress, !dataJobs.startedHere(job.arn) {
                description.exportStatus = .failed
                description.failureCode = "UNKNOWN"
                description.failureMessage = DataJobs.interrupted
            }
            return description
        }
    }

    static func arn(_ region: String, _ table: String) -> String {
        ResourceNames.tableARN(region: region, table: table)
    }
}
