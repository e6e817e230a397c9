import DynamoAPI
import DynamoEngine
import Foundation

/// `--throttle` for BatchWriteItem and BatchGetItem, item by item as DynamoDB does: in request
/// order, an item is admitted while its table (for a write, also every global index of it) and
/// its partition have room beyond the units the items admitted before it are estimated to take
/// (a put: its size in KB; a delete: 1; a read: 1 strongly consistent, 0.5 eventually). The
/// engine runs the admitted items; the others are added to the answer's `UnprocessedItems` /
/// `UnprocessedKeys`. When no item is admitted the batch fails with the throttling error
/// ("If none of the items can be processed due to insufficient provisioned throughput on all of
/// the tables in the request, then BatchWriteItem returns a
/// ProvisionedThroughputExceededException", and the same for BatchGetItem).
struct BatchAdmission {
    private let body: JSONValue
    private let tables: [(nameInBody: String, table: TableDefinition)]
    private var write: BatchWriteItemInput?
    private var get: BatchGetItemInput?

    /// Nil when the request does not decode or names a table that does not exist: it then runs
    /// as a whole, and the engine answers with DynamoDB's error.
    init?(operation: String, body: JSONValue, tables: [(String, TableDefinition)]) {
        self.body = body
        self.tables = tables.map { (nameInBody: $0.0, table: $0.1) }
        if operation == "BatchWriteItem" {
            guard let input = try? BatchWriteItemInput.decodeRequest(body), input.requestItems.count == tables.count
            else { return nil }
            write = input
        } else {
            guard let input = try? BatchGetItemInput.decodeRequest(body), input.requestItems.count == tables.count
            else { return nil }
            get = input
        }
    }

    /// Admits what has room, runs it and charges it; returns the answer with the rest unprocessed.
    func run(
        throttle: CapacityThrottle, database: Database, now: Double,
        _ work: (JSONValue) throws -> [UInt8]
    ) throws -> [UInt8] {
        var reserved: [CapacityThrottle.BucketKey: Double] = [:]
        var refusal: DynamoError?
        var partitions: [String: [PartitionKeys.Touch]] = [:]
        /// Whether the item keyed `key` on `table` (estimated at `estimate` units) has room.
        func admits(_ key: [String: AttributeValue], table: TableDefinition, estimate: Double, isWrite: Bool) -> Bool {
            let touch = key[table.partitionKey.name].map { [PartitionKeys.Touch(index: nil, value: PartitionKeys.identity($0))] } ?? []
            let demands = CapacityThrottle.demands(table, index: nil, isWrite: isWrite, partitions: touch)
            if let refused = throttle.admit(
                demands, estimate: estimate, reserved: &reserved, isWrite: isWrite,
                database: database, now: now)
            {
                refusal = refusal ?? refused
                return false
            }
            partitions[table.name, default: []] += touch
            return true
        }
        let definitions = tables.map(\.table)
        if var input = write {
            var unprocessed: [String: [WriteRequest]] = [:]
            for (name, table) in tables {
                let (admitted, refused) = (input.requestItems[name] ?? []).partitioned { request in
                    let item = request.putRequest?.item ?? request.deleteRequest?.key ?? [:]
                    let estimate = request.putRequest.map { (Double(ItemSize.of($0.item)) / 1024).rounded(.up) } ?? 1
                    return admits(item, table: table, estimate: max(estimate, 1), isWrite: true)
                }
                input.requestItems[name] = admitted.isEmpty ? nil : admitted
                if !refused.isEmpty { unprocessed[name] = refused }
            }
            if let refusal, input.requestItems.isEmpty { throw refusal }
            let bytes = try throttle.runCharged(
                body: unprocessed.isEmpty ? body : Self.json(input), definitions: definitions, partitions: partitions,
                isWrite: true, database: database, now: now, work)
            guard !unprocessed.isEmpty, var output = try? BatchWriteItemOutput(json: JSONValue(parsing: bytes)) else { return bytes }
            output.unprocessedItems = (output.unprocessedItems ?? [:]).merging(unprocessed) { $0 + $1 }
            return output.jsonBytes
        }
        guard var input = get else { return try work(body) }
        var unprocessed: [String: KeysAndAttributes] = [:]
        for (name, table) in tables {
            guard var request = input.requestItems[name] else { continue }
            let estimate = request.consistentRead == true ? 1.0 : 0.5
            let (admitted, refused) = request.keys.partitioned { admits($0, table: table, estimate: estimate, isWrite: false) }
            request.keys = admitted
            input.requestItems[name] = admitted.isEmpty ? nil : request
            if !refused.isEmpty { request.keys = refused; unprocessed[name] = request }
        }
        if let refusal, input.requestItems.isEmpty { throw refusal }
        let bytes = try throttle.runCharged(
            body: unprocessed.isEmpty ? body : Self.json(input), definitions: definitions, partitions: partitions,
            isWrite: false, database: database, now: now, work)
        guard !unprocessed.isEmpty, var output = try? BatchGetItemOutput(json: JSONValue(parsing: bytes)) else { return bytes }
        var keys = output.unprocessedKeys ?? [:]
        for (name, request) in unprocessed {
            if var pending = keys[name] { pending.keys += request.keys; keys[name] = pending } else { keys[name] = request }
        }
        output.unprocessedKeys = keys
        return output.jsonBytes
    }

    /// A shape as the request body the engine call takes.
    private static func json(_ input: some DynamoShape) throws -> JSONValue {
        try JSONValue(parsing: input.jsonBytes)
    }
}

extension Array {
    /// The elements for which `isIncluded` holds, and the others, each in order.
    fileprivate func partitioned(_ isIncluded: (Element) -> Bool) -> (included: [Element], excluded: [Element]) {
        var included: [Element] = []
        var excluded: [Element] = []
        for element in self {
            if isIncluded(element) { included.append(element) } else { excluded.append(element) }
        }
        return (included, excluded)
    }
}
