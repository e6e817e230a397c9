import DynamoAPI
import DynamoEngine

/// Exports to and imports from S3 (a directory with `serve --s3-dir`): decode, run on the
/// engine (which starts the job in the background), render.
extension OperationRows {
    static let exportTableToPointInTime = OperationRow { (input: ExportTableToPointInTimeInput, context) in
        try context.database.exportTableToPointInTime(input, now: context.now)
    }

    static let describeExport = OperationRow { (input: DescribeExportInput, context) in
        try context.database.describeExport(input)
    }

    static let listExports = OperationRow { (input: ListExportsInput, context) in
        try context.database.listExports(input)
    }

    static let importTable = OperationRow { (input: ImportTableInput, context) in
        try context.database.importTable(input, now: context.now)
    }

    static let describeImport = OperationRow { (input: DescribeImportInput, context) in
        try context.database.describeImport(input)
    }

    static let listImports = OperationRow { (input: ListImportsInput, context) in
        try context.database.listImports(input)
    }
}

/// Bulk operations: loads of items from S3 into an existing table, run by the engine in the
/// background (see `Database+BulkOperations.swift`); all on the pool.
extension OperationRows {
    static let startBulkPutItems = OperationRow { (input: StartBulkPutItemsInput, context) in
        try context.database.startBulkPutItems(input, now: context.now)
    }

    static let describeBulkOperation = OperationRow { (input: DescribeBulkOperationInput, context) in
        try context.database.describeBulkOperation(input)
    }

    static let listBulkOperations = OperationRow { (input: ListBulkOperationsInput, context) in
        try context.database.listBulkOperations(input, now: context.now)
    }

    static let cancelBulkOperation = OperationRow { (input: CancelBulkOperationInput, context) in
        try context.database.cancelBulkOperation(input)
    }
}
