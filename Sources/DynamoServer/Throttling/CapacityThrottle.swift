import DynamoAPI
import DynamoEngine
import Synchronization

/// Capacity-faithful throttling (`serve --throttle`): every table and global secondary index
/// gets a read and a write ``TokenBucket``, refilled on the server clock at its capacity, and so
/// does every partition key value a request touches.
///
/// - Provisioned tables and indexes: their read/write capacity units, with up to 300 seconds of
///   unused capacity kept as burst (a new table starts with its full burst).
///   `ProvisionedThroughputExceededException` with DynamoDB's table or index wording.
/// - On-demand tables and indexes: the table's `OnDemandThroughput` maximum when set, otherwise
///   DynamoDB's default per-table limit of 40,000 read / 40,000 write request units per second,
///   with no burst beyond one second. `ThrottlingException`.
/// - Partitions: one partition key value gets at most DynamoDB's per-partition 3,000 read /
///   1,000 write units per second (one second of burst), on top of the table's limits, in both
///   modes (a hot key); reason `…KeyRangeThroughputExceeded`. Table partitions for item
///   operations, batches and transactions; a Query's partition on the table or the global index
///   it reads. Writes to a global index's partitions are not modelled.
/// - A write needs room on its table and on every global index of the table (an index that is
///   out of capacity throttles the table's writes, as in DynamoDB); a read needs room on the
///   table, or on the global index it reads.
/// - BatchWriteItem and BatchGetItem admit item by item (``BatchAdmission``): the items that
///   find no room come back in `UnprocessedItems` / `UnprocessedKeys`, and only a batch of which
///   no item finds room fails with the throttling error.
///
/// Admission looks at the balance (above zero); the units charged afterwards are the ones the
/// engine computed for the request (`ConsumedCapacity`), so a large item costs what it costs; a
/// table's units are shared evenly among the partitions the request touched on it. UpdateTable
/// changes apply on the next request: rates are read from the table's definition.
package final class CapacityThrottle: Sendable {
    /// Seconds of unused provisioned capacity a bucket keeps (DynamoDB's burst capacity).
    static let burstSeconds = 300.0
    /// DynamoDB's default per-table on-demand limit, units per second, reads and writes alike.
    static let onDemandTableLimit = 40_000.0
    /// DynamoDB's per-partition limits, units per second.
    static let partitionReadLimit = 3_000.0
    static let partitionWriteLimit = 1_000.0
    /// Partition buckets kept before the full ones (which say nothing) are dropped.
    static let partitionBucketsKept = 10_000

    struct BucketKey: Hashable {
        var database: ObjectIdentifier
        var storageID: Int64
        var index: String
        var isWrite: Bool
        /// A partition key value's canonical JSON; empty for the whole table or index.
        var partition: String
    }

    /// One bucket a request needs room in: a table or global index, or one of its partitions.
    struct Demand {
        var table: TableDefinition
        var index: IndexDefinition?
        var partition: String?
    }

    private let buckets = Mutex<[BucketKey: TokenBucket]>([:])

    package init() {}

    /// Runs `work` (one engine call) if the tables and partitions `touches` names have capacity
    /// left, then charges what it consumed.
    ///
    /// - Throws: DynamoDB's throttling error, or whatever `work` throws.
    func run<Output>(
        _ touches: OperationTouches, capacity: OperationTouches.Capacity, database: Database, now: Double,
        _ work: () throws -> Output
    ) throws -> Output {
        let isWrite = capacity == .writes
        let definitions = touches.tables.compactMap { name in (try? database.table(named: name)).map { (name, $0) } }
        var demands: [Demand] = []
        var partitions: [String: [PartitionKeys.Touch]] = [:]
        for (name, table) in definitions {
            let touched = touches.partitions(of: table, named: name, database: database)
            partitions[table.name, default: []] += touched
            demands += Self.demands(table, index: touches.index, isWrite: isWrite, partitions: touched)
        }
        var reserved: [BucketKey: Double] = [:]
        if let refusal = admit(demands, estimate: 0, reserved: &reserved, isWrite: isWrite, database: database, now: now) {
            throw refusal
        }
        return try runCharged(
            definitions: definitions.map(\.1), partitions: partitions, isWrite: isWrite, database: database, now: now, work)
    }

    /// Runs an admitted request and charges what the engine says it consumed.
    func runCharged<Output>(
        definitions: [TableDefinition], partitions: [String: [PartitionKeys.Touch]],
        isWrite: Bool, database: Database, now: Double,
        _ work: () throws -> Output
    ) throws -> Output {
        let recorder = CapacityRecorder()
        let result = try CapacityRecorder.$current.withValue(recorder) { try work() }
        charge(
            recorder.consumed, definitions: definitions, partitions: partitions, isWrite: isWrite,
            database: database, now: now)
        return result
    }

    /// The buckets one request (or one batch item) on `table` needs room in.
    static func demands(
        _ table: TableDefinition, index: String?, isWrite: Bool,
        partitions: [PartitionKeys.Touch]
    ) -> [Demand] {
        var demands: [Demand]
        if isWrite {
            demands = [Demand(table: table)] + table.globalIndexes.map { Demand(table: table, index: $0) }
        } else if let index, let global = table.globalIndexes.first(where: { $0.name == index }) {
            demands = [Demand(table: table, index: global)]
        } else {
            demands = [Demand(table: table)]
        }
        for touch in Set(partitions) {
            let global = touch.index.flatMap { name in table.globalIndexes.first(where: { $0.name == name }) }
            demands.append(Demand(table: table, index: global, partition: touch.value))
        }
        return demands
    }

    /// Whether every bucket of `demands` has room beyond what is `reserved` in it already; if so,
    /// reserves `estimate` units in each. Returns the refusal of the first bucket without room.
    func admit(
        _ demands: [Demand], estimate: Double, reserved: inout [BucketKey: Double], isWrite: Bool,
        database: Database, now: Double
    ) -> DynamoError? {
        buckets.withLock { buckets in
            for demand in demands {
                let key = Self.key(demand, isWrite: isWrite, database: database)
                let bucket = Self.refreshed(key, demand: demand, isWrite: isWrite, now: now, in: &buckets)
                guard bucket.balance - reserved[key, default: 0] > 0 else {
                    let limit = Self.limit(demand.table, index: demand.index, isWrite: isWrite)
                    return ThrottlingErrors.error(
                        table: demand.table, index: demand.index, isWrite: isWrite,
                        provisioned: demand.table.billingMode == .provisioned,
                        configuredMaximum: limit.configured,
                        keyRange: demand.partition != nil, region: database.region)
                }
            }
            for demand in demands { reserved[Self.key(demand, isWrite: isWrite, database: database), default: 0] += estimate }
            return nil
        }
    }

    /// Charges consumed units to the tables and indexes, and shares each table's (or global
    /// index's) units evenly among the partitions the request touched on it.
    func charge(
        _ consumed: [String: ConsumedUnits], definitions: [TableDefinition],
        partitions: [String: [PartitionKeys.Touch]], isWrite: Bool, database: Database, now: Double
    ) {
        buckets.withLock { buckets in
            for (name, units) in consumed {
                guard
                    let table = definitions.first(where: {
                        $0.name == name || ResourceNames.tableARN(region: database.region, table: $0.name) == name
                    })
                else { continue }
                // Local indexes share their table's capacity; global ones have their own.
                var charges: [(IndexDefinition?, Double)] = [(nil, units.table + units.localIndexes.values.reduce(0, +))]
                for (indexName, spent) in units.globalIndexes {
                    if let global = table.globalIndexes.first(where: { $0.name == indexName }) { charges.append((global, spent)) }
                }
                for (target, spent) in charges where spent > 0 {
                    var demands = [(Demand(table: table, index: target), spent)]
                    let touched = (partitions[table.name] ?? []).filter { $0.index == target?.name }
                    for touch in touched {
                        demands.append((Demand(table: table, index: target, partition: touch.value), spent / Double(touched.count)))
                    }
                    for (demand, units) in demands {
                        let key = Self.key(demand, isWrite: isWrite, database: database)
                        var bucket = Self.refreshed(key, demand: demand, isWrite: isWrite, now: now, in: &buckets)
                        bucket.spend(units)
                        buckets[key] = bucket
                    }
                }
            }
            if buckets.count > Self.partitionBucketsKept { Self.dropFullPartitions(&buckets, now: now) }
        }
    }

    private static func key(_ demand: Demand, isWrite: Bool, database: Database) -> BucketKey {
        BucketKey(
            database: ObjectIdentifier(database), storageID: demand.table.storageID,
            index: demand.index?.name ?? "", isWrite: isWrite, partition: demand.partition ?? "")
    }

    /// The bucket of `key`, refilled to `now` and stored.
    private static func refreshed(
        _ key: BucketKey, demand: Demand, isWrite: Bool, now: Double,
        in buckets: inout [BucketKey: TokenBucket]
    ) -> TokenBucket {
        let limit =
            demand.partition == nil
            ? Self.limit(demand.table, index: demand.index, isWrite: isWrite)
            : (rate: isWrite ? partitionWriteLimit : partitionReadLimit, burst: 1.0, provisioned: false, configured: false)
        var bucket = buckets[key] ?? TokenBucket(rate: limit.rate, burstSeconds: limit.burst, now: now)
        bucket.refill(rate: limit.rate, burstSeconds: limit.burst, now: now)
        buckets[key] = bucket
        return bucket
    }

    /// Forgets partition buckets that have refilled completely: a new one starts the same.
    private static func dropFullPartitions(_ buckets: inout [BucketKey: TokenBucket], now: Double) {
        buckets = buckets.filter { key, bucket in
            guard !key.partition.isEmpty else { return true }
            let rate = key.isWrite ? partitionWriteLimit : partitionReadLimit
            return bucket.balance + (now - bucket.updated) * rate < rate
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
