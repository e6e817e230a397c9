import DynamoAPI
import DynamoEngine

/// Global tables: the 2017.11.29 API and replica auto scaling (replicas of version 2019.11.21
/// go through UpdateTable).
extension OperationRows {
    static let createGlobalTable = OperationRow { (input: CreateGlobalTableInput, context) in
        try context.database.createGlobalTable(input)
    }

    static let updateGlobalTable = OperationRow { (input: UpdateGlobalTableInput, context) in
        try context.database.updateGlobalTable(input)
    }

    static let describeGlobalTable = OperationRow { (input: DescribeGlobalTableInput, context) in
        try context.database.describeGlobalTable(input)
    }

    static let listGlobalTables = OperationRow { (input: ListGlobalTablesInput, context) in
        try context.database.listGlobalTables(input)
    }

    static let describeGlobalTableSettings = OperationRow { (input: DescribeGlobalTableSettingsInput, context) in
        try context.database.describeGlobalTableSettings(input)
    }

    static let updateGlobalTableSettings = OperationRow { (input: UpdateGlobalTableSettingsInput, context) in
        try context.database.updateGlobalTableSettings(input)
    }

    static let describeTableReplicaAutoScaling = OperationRow { (input: DescribeTableReplicaAutoScalingInput, context) in
        try naming(input.tableName) { try context.database.describeTableReplicaAutoScaling(input) }
    }

    static let updateTableReplicaAutoScaling = OperationRow { (input: UpdateTableReplicaAutoScalingInput, context) in
        try naming(input.tableName) { try context.database.updateTableReplicaAutoScaling(input) }
    }
}
