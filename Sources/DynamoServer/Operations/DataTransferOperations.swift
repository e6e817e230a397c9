import DynamoAPI
import DynamoEngine

/// Exports to and imports from S3 (a directory with `serve --s3-dir`): decode, run on the
/// engine (which starts the job in the background), render.
enum DataTransferOperations {
    /// The rows of ``EngineDispatcher/operations`` for exports and imports.
    static let rows: [String: EngineDispatcher.Operation] = [
        "ExportTableToPointInTime": EngineDispatcher.shaped { (input: ExportTableToPointInTimeInput, context) in
            try context.database.exportTableToPointInTime(input, now: context.now)
        },
        "DescribeExport": EngineDispatcher.shaped { (input: DescribeExportInput, context) in
            try context.database.describeExport(input)
        },
        "ListExports": EngineDispatcher.shaped { (input: ListExportsInput, context) in
            try context.database.listExports(input)
        },
        "ImportTable": EngineDispatcher.shaped { (input: ImportTableInput, context) in
            try context.database.importTable(input, now: context.now)
        },
        "DescribeImport": EngineDispatcher.shaped { (input: DescribeImportInput, context) in
            try context.database.describeImport(input)
        },
        "ListImports": EngineDispatcher.shaped { (input: ListImportsInput, context) in
            try context.database.listImports(input)
        },
    ]
}
