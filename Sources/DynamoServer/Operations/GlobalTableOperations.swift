import DynamoAPI
import DynamoEngine

/// Global tables: the 2017.11.29 API and replica auto scaling (replicas of version 2019.11.21
/// go through UpdateTable).
enum GlobalTableOperations {
    static let rows: [String: EngineDispatcher.Operation] = [
        "CreateGlobalTable": EngineDispatcher.shaped { (input: CreateGlobalTableInput, context) in
            try context.database.createGlobalTable(input)
        },
        "UpdateGlobalTable": EngineDispatcher.shaped { (input: UpdateGlobalTableInput, context) in
            try context.database.updateGlobalTable(input)
        },
        "DescribeGlobalTable": EngineDispatcher.shaped { (input: DescribeGlobalTableInput, context) in
            try context.database.describeGlobalTable(input)
        },
        "ListGlobalTables": EngineDispatcher.shaped { (input: ListGlobalTablesInput, context) in
            try context.database.listGlobalTables(input)
        },
        "DescribeGlobalTableSettings": EngineDispatcher.shaped { (input: DescribeGlobalTableSettingsInput, context) in
            try context.database.describeGlobalTableSettings(input)
        },
        "UpdateGlobalTableSettings": EngineDispatcher.shaped { (input: UpdateGlobalTableSettingsInput, context) in
            try context.database.updateGlobalTableSettings(input)
        },
        "DescribeTableReplicaAutoScaling": EngineDispatcher.shaped { (input: DescribeTableReplicaAutoScalingInput, context) in
            try TableOperations.naming(input.tableName) { try context.database.describeTableReplicaAutoScaling(input) }
        },
        "UpdateTableReplicaAutoScaling": EngineDispatcher.shaped { (input: UpdateTableReplicaAutoScalingInput, context) in
            try TableOperations.naming(input.tableName) { try context.database.updateTableReplicaAutoScaling(input) }
        },
    ]
}
