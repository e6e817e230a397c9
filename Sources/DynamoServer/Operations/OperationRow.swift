import DynamoAPI
import DynamoEngine

/// One operation of the service model as the server runs it: everything true of the operation,
/// in one typed value.
///
/// The generated switch of `OperationTable.swift` reaches one row per case of
/// `DynamoOperation` and `DynamoStreamsOperation`, so an operation of the model without a row,
/// or a misspelled one, does not compile. A request goes through a row in this order:
///
/// 1. **decode**: the body into `Input` (the fast byte-level reader where it took the body,
///    else the generated shape decoder: every DynamoDB validation error);
/// 2. **placement**: where the engine call runs (``DispatchPolicy/Placement``), decided from the
///    typed input before anything runs;
/// 3. **touches**: the tables, partitions and capacity the request names, read from the typed
///    input, only when faults, throttling or the debug request log ask;
/// 4. **run**: the engine call, the one hand-written part, on the thread the placement chose
///    (for an item write, under the writer's lock);
/// 5. **encode**: the output's bytes, after the engine call returned (and so after the writer's
///    lock was let go).
///
/// ```swift
/// static let describeLimits = OperationRow(.eventLoop) { (_: DescribeLimitsInput, _) in
///     DescribeLimitsOutput(accountMaxReadCapacityUnits: 80000, accountMaxWriteCapacityUnits: 80000,
///         tableMaxReadCapacityUnits: 40000, tableMaxWriteCapacityUnits: 40000)
/// }
/// ```
struct OperationRow<Input: DynamoShape, Output: Sendable>: Sendable {
    /// The engine call.
    typealias Run = @Sendable (Input, OperationContext) throws -> Output

    /// Where the engine call runs.
    let placement: RowPlacement<Input>
    /// What the request names, for faults, throttling and the request log.
    let touches: @Sendable (Input) -> OperationTouches
    /// How `--throttle` admits the request.
    let admission: Admission<Input, Output>
    /// The engine call.
    let run: Run
    /// The answer's bytes.
    let encode: @Sendable (Output) -> [UInt8]

    /// A row whose output is a generated shape, encoded as such.
    init(
        _ placement: RowPlacement<Input> = .pool,
        touches: @escaping @Sendable (Input) -> OperationTouches = OperationTouches.named,
        admission: Admission<Input, Output> = .unthrottled,
        run: @escaping Run
    ) where Output: DynamoShape {
        self.init(placement, touches: touches, admission: admission, run: run) { $0.jsonBytes }
    }

    /// A row with its own encoding (stored item bytes written as they are, an empty body).
    init(
        _ placement: RowPlacement<Input> = .pool,
        touches: @escaping @Sendable (Input) -> OperationTouches = OperationTouches.named,
        admission: Admission<Input, Output> = .unthrottled,
        run: @escaping Run,
        encode: @escaping @Sendable (Output) -> [UInt8]
    ) {
        self.placement = placement
        self.touches = touches
        self.admission = admission
        self.run = run
        self.encode = encode
    }
}

/// Where a row's engine call runs, before storage and input are known.
enum RowPlacement<Input: Sendable>: Sendable {
    /// Always here.
    case fixed(DispatchPolicy.Placement)
    /// An item write: where ``DispatchPolicy/Storage`` puts item writes.
    case itemWrite
    /// Decided per request from the input and the request's database (a cheap look, never an
    /// item read): a DescribeTable whose statistics are not counted yet, a PartiQL statement
    /// that is more than a read of one item by its key.
    case decided(@Sendable (Input, Database) -> DispatchPolicy.Placement)

    /// On the request thread pool.
    static var pool: Self { .fixed(.pool) }
    /// On the connection's event loop.
    static var eventLoop: Self { .fixed(.eventLoop) }

    /// The placement of one request.
    func resolve(_ input: Input, storage: DispatchPolicy.Storage, database: () throws -> Database) rethrows
        -> DispatchPolicy.Placement
    {
        switch self {
        case .fixed(let placement): placement
        case .itemWrite: storage.itemWritePlacement
        case .decided(let decide): decide(input, try database())
        }
    }
}

/// How `--throttle` admits one request of a row.
enum Admission<Input: Sendable, Output: Sendable>: Sendable {
    /// Never throttled (control plane, PartiQL, streams).
    case unthrottled
    /// Admitted or refused as a whole, charged what it consumed: reads or writes.
    case whole(OperationTouches.Capacity)
    /// Admitted item by item (BatchWriteItem, BatchGetItem): the items without room come back
    /// unprocessed in the output.
    case itemByItem(@Sendable (Input, BatchAdmission.Context, (Input) throws -> Output) throws -> Output)
}

/// What a request names, read from its typed input: the tables (for fault rules, throttling
/// and the request log), the index it reads and the items it names by key (for per-partition
/// limits).
struct OperationTouches: Sendable {
    /// The kind of capacity a request consumes.
    enum Capacity: Sendable, Equatable {
        case reads
        case writes
    }

    /// The tables as the request names them (a name or an ARN): `TableName`, then the keys of
    /// `RequestItems` in order, then each transaction item's table.
    var tables: [String] = []
    /// The index a Query or Scan reads.
    var index: String? = nil
    /// The items the request names by key or as a whole, each with the table it names: one
    /// entry per item, in request order.
    var items: [(table: String, item: [String: AttributeValue])] = []
    /// A Query's one partition: the index it reads (nil: the table) and its partition key
    /// value, as the engine reads its key condition.
    var queryPartition: (@Sendable (Database) -> (index: String?, value: AttributeValue)?)? = nil

    /// The tables of an input (``TableNaming``; an input that names none, none).
    static func named(_ input: some DynamoShape) -> OperationTouches {
        OperationTouches(tables: (input as? any TableNaming)?.tableNames ?? [])
    }

    /// The partition key values of `table` this request touches, in request order.
    func partitions(of table: TableDefinition, named nameInRequest: String, database: Database) -> [PartitionKeys.Touch] {
        if let queryPartition {
            guard let partition = queryPartition(database) else { return [] }
            return [PartitionKeys.Touch(index: partition.index, value: PartitionKeys.identity(partition.value))]
        }
        let key = table.partitionKey.name
        return items.compactMap { named in
            guard named.table == nameInRequest, let value = named.item[key] else { return nil }
            return PartitionKeys.Touch(index: nil, value: PartitionKeys.identity(value))
        }
    }
}

/// An input that names its tables: every input with a `TableName` (conformances generated in
/// `OperationTable.swift`), the batches (`RequestItems`) and the transactions (their actions).
protocol TableNaming {
    /// The tables, as ``OperationTouches/tables`` lists them.
    var tableNames: [String] { get }
}

/// What an operation needs besides its input.
struct OperationContext {
    let database: Database
    /// Seconds since 1970, fixed for the whole request.
    let now: Double
    /// The wording the server answers in, for the few checks the 2026 rollout added rather
    /// than reworded.
    var wording: ErrorWording = .default
}
