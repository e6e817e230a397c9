import DynamoAPI
import DynamoEngine
import DynamoExpressions

/// The partition key values a request reads or writes, for DynamoDB's per-partition limits
/// (`CapacityThrottle`): one value per item named by a key or an item, and a Query's partition
/// from its key condition (on the index it reads, when it names a global one).
///
/// Values are compared as their canonical JSON (`{"S":"a"}`). A request whose keys cannot be
/// read here (a malformed one) names none: the engine then answers with its validation error.
enum PartitionKeys {
    /// One partition touched: the index (nil: the table) and the key value.
    struct Touch: Hashable {
        var index: String?
        var value: String
    }

    /// The partitions of `table` that `body` (an `operation` request) touches, in request order,
    /// one entry per item (a batch writing one key twice names it twice). `nameInBody` is how the
    /// request names the table (a name or an ARN).
    static func touched(
        by operation: String, body: JSONValue, table: TableDefinition,
        nameInBody: String
    ) -> [Touch] {
        let key = table.partitionKey.name
        switch operation {
        case "GetItem", "DeleteItem", "UpdateItem": return values([body["Key"]], key)
        case "PutItem": return values([body["Item"]], key)
        case "BatchGetItem":
            guard case .array(let keys)? = body["RequestItems"]?[nameInBody]?["Keys"] else { return [] }
            return values(keys, key)
        case "BatchWriteItem":
            guard case .array(let requests)? = body["RequestItems"]?[nameInBody] else { return [] }
            return values(requests.map { $0["PutRequest"]?["Item"] ?? $0["DeleteRequest"]?["Key"] }, key)
        case "TransactWriteItems", "TransactGetItems":
            guard case .array(let actions)? = body["TransactItems"] else { return [] }
            let named = actions.compactMap { action -> JSONValue? in
                guard case .object(let members) = action, let inner = members.first?.value,
                    inner["TableName"]?.stringValue == nameInBody
                else { return nil }
                return inner["Key"] ?? inner["Item"]
            }
            return values(named, key)
        case "Query": return query(body, table: table)
        default: return []
        }
    }

    /// The canonical text of one key value, as `touched` names it.
    static func identity(_ value: AttributeValue) -> String {
        var writer = JSONWriter()
        value.encode(to: &writer)
        return writer.string
    }

    private static func values(_ keys: [JSONValue?], _ name: String) -> [Touch] {
        keys.compactMap { key in
            guard let json = key?[name], let value = try? AttributeValue(json: json) else { return nil }
            return Touch(index: nil, value: identity(value))
        }
    }

    /// A Query's one partition: the value its key condition gives the partition key of the
    /// table, or of the global index it reads (a local index shares its table's partitions).
    private static func query(_ body: JSONValue, table: TableDefinition) -> [Touch] {
        guard let input = try? QueryInput.decodeRequest(body),
            let condition = try? ExpressionCompiler.compile(ExpressionInput(input)).keyCondition
        else { return [] }
        let global = input.indexName.flatMap { name in table.globalIndexes.first(where: { $0.name == name }) }
        let key = global?.partitionKey.name ?? table.partitionKey.name
        for (attribute, comparison) in condition.terms where attribute == key {
            if case .equal(let value) = comparison { return [Touch(index: global?.name, value: identity(value))] }
        }
        return []
    }
}
