import DynamoAPI
import DynamoEngine

/// `--throttle` for BatchWriteItem and BatchGetItem, item by item as DynamoDB does: in request
/// order, an item is admitted while its table (for a write, also every global index of it) and
/// its partition have room beyond the units the items admitted before it are estimated to take
/// (a put: its size in KB; a delete: 1; a read: 1 strongly consistent, 0.5 eventually). The
/// engine runs the admitted items; the others are added to the answer's `UnprocessedItems` /
/// `UnprocessedKeys`. When no item is admitted the batch fails with the throttling error
/// ("If none of the items can be processed due to insufficient provisioned throughput on all of
/// the tables in the request, then BatchWriteItem returns a
/// ProvisionedThroughputExceededException", and the same for BatchGetItem).
enum BatchAdmission {
    /// What an item-by-item admission works with.
    struct Context {
        var throttle: CapacityThrottle
        var database: Database
        var now: Double
    }

    /// The admissions of one batch: what was reserved so far, the first refusal, the
    /// partitions admitted.
    private struct Ledger {
        let context: Context
        var reserved: [CapacityThrottle.BucketKey: Double] = [:]
        var refusal: DynamoError?
        var partitions: [String: [PartitionKeys.Touch]] = [:]

        /// Whether the item keyed `key` on `table` (estimated at `estimate` units) has room.
        mutating func admits(_ key: [String: AttributeValue], table: TableDefinition, estimate: Double, isWrite: Bool) -> Bool {
            let touch = key[table.partitionKey.name].map { [PartitionKeys.Touch(index: nil, value: PartitionKeys.identity($0))] } ?? []
            let demands = CapacityThrottle.demands(table, index: nil, isWrite: isWrite, partitions: touch)
            if let refused = context.throttle.admit(
                demands, estimate: estimate, reserved: &reserved, isWrite: isWrite,
                database: context.database, now: context.now)
            {
                refusal = refusal ?? refused
                return false
            }
            partitions[table.name, default: []] += touch
            return true
        }

        /// Runs the admitted part and charges it.
        func run<Output>(_ definitions: [TableDefinition], isWrite: Bool, _ work: () throws -> Output) throws -> Output {
            try context.throttle.runCharged(
                definitions: definitions, partitions: partitions, isWrite: isWrite, database: context.database,
                now: context.now, work)
        }
    }

    /// The tables of a batch with their definitions, or `nil` when one does not exist (the
    /// batch then runs as it is, and the engine answers DynamoDB's error).
    private static func definitions(_ names: some Sequence<String>, in database: Database) -> [(String, TableDefinition)]? {
        var found: [(String, TableDefinition)] = []
        for name in names {
            guard let definition = try? database.table(named: name) else { return nil }
            found.append((name, definition))
        }
        return found
    }

    /// A BatchWriteItem admitted item by item; the refused items are added to the answer's
    /// `UnprocessedItems`.
    static func batchWrite(
        _ input: BatchWriteItemInput, _ context: Context, _ work: (BatchWriteItemInput) throws -> BatchWriteItemOutput
    ) throws -> BatchWriteItemOutput {
        guard let tables = definitions(input.requestItems.keys.sorted(), in: context.database) else { return try work(input) }
        var ledger = Ledger(context: context)
        var admitted = input
        var unprocessed: [String: [WriteRequest]] = [:]
        for (name, table) in tables {
            let (accepted, refused) = (input.requestItems[name] ?? []).partitioned { request in
                let item = request.putRequest?.item ?? request.deleteRequest?.key ?? [:]
                let estimate = request.putRequest.map { (Double(ItemSize.of($0.item)) / 1024).rounded(.up) } ?? 1
                return ledger.admits(item, table: table, estimate: max(estimate, 1), isWrite: true)
            }
            admitted.requestItems[name] = accepted.isEmpty ? nil : accepted
            if !refused.isEmpty { unprocessed[name] = refused }
        }
        if let refusal = ledger.refusal, admitted.requestItems.isEmpty { throw refusal }
        var output = try ledger.run(tables.map(\.1), isWrite: true) { try work(admitted) }
        if !unprocessed.isEmpty {
            output.unprocessedItems = (output.unprocessedItems ?? [:]).merging(unprocessed) { $0 + $1 }
        }
        return output
    }

    /// A BatchGetItem admitted key by key; the refused keys are added to the answer's
    /// `UnprocessedKeys`.
    static func batchGet(
        _ input: BatchGetItemInput, _ context: Context, _ work: (BatchGetItemInput) throws -> RawBatchGetItemOutput
    ) throws -> RawBatchGetItemOutput {
        guard let tables = definitions(input.requestItems.keys.sorted(), in: context.database) else { return try work(input) }
        var ledger = Ledger(context: context)
        var admitted = input
        var unprocessed: [String: KeysAndAttributes] = [:]
        for (name, table) in tables {
            guard var request = input.requestItems[name] else { continue }
            let estimate = request.consistentRead == true ? 1.0 : 0.5
            let (accepted, refused) = request.keys.partitioned { ledger.admits($0, table: table, estimate: estimate, isWrite: false) }
            request.keys = accepted
            admitted.requestItems[name] = accepted.isEmpty ? nil : request
            if !refused.isEmpty {
                request.keys = refused
                unprocessed[name] = request
            }
        }
        if let refusal = ledger.refusal, admitted.requestItems.isEmpty { throw refusal }
        var output = try ledger.run(tables.map(\.1), isWrite: false) { try work(admitted) }
        guard !unprocessed.isEmpty else { return output }
        var keys = output.unprocessedKeys ?? [:]
        for (name, request) in unprocessed {
            if var pending = keys[name] {
                pending.keys += request.keys
                keys[name] = pending
            } else {
                keys[name] = request
            }
        }
        output.unprocessedKeys = keys
        return output
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
