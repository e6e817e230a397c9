import DynamoAPI
import DynamoEngine
import Synchronization

/// Capacity-faithful throttling (`serve --throttle`): every table and global secondary index
/// gets a read and a write ``TokenBucket``, refilled on the server clock at its capacity.
///
/// - Provisioned tables and indexes: their read/write capacity units, with up to 300 seconds of
///   unused capacity kept as burst (a new table starts with its full burst).
///   `ProvisionedThroughputExceededException` with DynamoDB's table or index wording.
/// - On-demand tables and indexes: the table's `OnDemandThroughput` maximum when set, otherwise
///   DynamoDB's default per-table limit of 40,000 read / 40,000 write request units per second,
///   with no burst beyond one second. `ThrottlingException`.
/// - A write needs room on its table and on every global index of the table (an index that is
///   out of capacity throttles the table's writes, as in DynamoDB); a read needs room on the
///   table, or on the global index it reads.
/// - Partitions are not modelled: a table is one partition with the table's capacity.
///
/// Admission looks at the balance (above zero); the units charged afterwards are the ones the
/// engine computed for the request (`ConsumedCapacity`), so a large item costs what it costs.
/// UpdateTable changes apply on the next request: rates are read from the table's definition.
package final class CapacityThrottle: Sendable {
    /// Seconds of unused provisioned capacity a bucket keeps (DynamoDB's burst capacity).
    static let burstSeconds = 300.0
    /// DynamoDB's default per-table on-demand limit, units per second, reads and writes alike.
    static let onDemandTableLimit = 40_000.0

    private struct BucketKey: Hashable {
        var database: ObjectIdentifier
        var storageID: Int64
        var index: String
        var isWrite: Bool
    }

    private let buckets = Mutex<[BucketKey: TokenBucket]>([:])

    package init() {}

    /// The operations that consume read capacity.
    static let reads: Set<String> = ["GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"]
    /// The operations that consume write capacity.
    static let writes: Set<String> = ["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"]

    /// Runs `work` (one engine call) if the tables it names have capacity left, then charges what
    /// it consumed. Other operations run unthrottled.
    ///
    /// - Throws: DynamoDB's throttling error, or whatever `work` throws.
    func run<T>(operation: String, body: JSONValue, database: Database, now: Double,
                _ work: () throws -> T) throws -> T {
        let isWrite = Self.writes.contains(operation)
        guard isWrite || Self.reads.contains(operation) else { return try work() }
        let tables = FaultInjector.tables(in: body)
        let index = body["IndexName"]?.stringValue
        let definitions = tables.compactMap { try? database.table(named: $0) }
        try admit(definitions, index: index, isWrite: isWrite, database: database, now: now)
        let recorder = CapacityRecorder()
        let result = try CapacityRecorder.$current.withValue(recorder) { try work() }
        charge(recorder.consumed, definitions: definitions, isWrite: isWrite, database: database, now: now)
        return result
    }

    private func admit(_ definitions: [TableDefinition], index: String?, isWrite: Bool, database: Database,
                       now: Double) throws(DynamoError) {
        try buckets.withLock { (buckets: inout [BucketKey: TokenBucket]) throws(DynamoError) in
            for table in definitions {
                var targets: [IndexDefinition?] = []
                if isWrite {
                    targets = [nil] + table.globalIndexes.map(Optional.some)
                } else if let index, let global = table.globalIndexes.first(where: { $0.name == index }) {
                    targets = [global]
                } else {
                    targets = [nil]
                }
                for target in targets {
                    let limit = Self.limit(table, index: target, isWrite: isWrite)
                    let key = BucketKey(database: ObjectIdentifier(database), storageID: table.storageID,
                                        index: target?.name ?? "", isWrite: isWrite)
                    var bucket = buckets[key] ?? TokenBucket(rate: limit.rate, burstSeconds: limit.burst, now: now)
                    bucket.refill(rate: limit.rate, burstSeconds: limit.burst, now: now)
                    buckets[key] = bucket
                    guard bucket.admits else {
                        throw ThrottlingErrors.error(table: table, index: target, isWrite: isWrite,
                                                     provisioned: limit.provisioned, configuredMaximum: limit.configured,
                                                     region: database.region)
                    }
                }
            }
        }
    }

    private func charge(_ consumed: [String: ConsumedUnits], definitions: [TableDefinition], isWrite: Bool,
                        database: Database, now: Double) {
        buckets.withLock { buckets in
            for (name, units) in consumed {
                guard let table = definitions.first(where: { $0.name == name || ResourceNames.tableARN(region: database.region, table: $0.name) == name })
                else { continue }
                // Local indexes share their table's capacity; global ones have their own.
                var charges: [(IndexDefinition?, Double)] = [(nil, units.table + units.localIndexes.values.reduce(0, +))]
                for (indexName, spent) in units.globalIndexes {
                    if let global = table.globalIndexes.first(where: { $0.name == indexName }) { charges.append((global, spent)) }
                }
                for (target, spent) in charges where spent > 0 {
                    let limit = Self.limit(table, index: target, isWrite: isWrite)
                    let key = BucketKey(database: ObjectIdentifier(database), storageID: table.storageID,
                                        index: target?.name ?? "", isWrite: isWrite)
                    var bucket = buckets[key] ?? TokenBucket(rate: limit.rate, burstSeconds: limit.burst, now: now)
                    bucket.refill(rate: limit.rate, burstSeconds: limit.burst, now: now)
                    bucket.spend(spent)
                    buckets[key] = bucket
                }
            }
        }
    }

    /// The rate (units per second) and burst (seconds) of a table or global index.
    static func limit(_ table: TableDefinition, index: IndexDefinition?, isWrite: Bool)
        -> (rate: Double, burst: Double, provisioned: Bool, configured: Bool)
    {
        if table.billingMode == .provisioned {
            let throughput = index?.throughput ?? table.throughput
            let units = isWrite ? throughput.writeCapacityUnits : throughput.readCapacityUnits
            return (Double(max(units, 0)), burstSeconds, true, true)
        }
        let maximum = index == nil ? (isWrite ? table.onDemandMaxWrite : table.onDemandMaxRead) : nil
        if let maximum, maximum > 0 { return (Double(maximum), 1, false, true) }
        return (onDemandTableLimit, 1, false, false)
    }
}
