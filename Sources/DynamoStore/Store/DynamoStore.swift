import DynamoAPI
import DynamoClient
import Logging
import Synchronization

/// A DynamoDB-backed object store: the model, the client that reaches the tables, and the
/// change notifications every context's saves produce.
///
/// A store is `Sendable`; create one per app and one ``ObjectContext`` per isolation domain
/// (the main actor, a background task).
///
/// ```swift
/// let store = try DynamoStore(types: [Location.self, Checkin.self], client: .local(port: 8000))
/// try await store.createTables()
/// let context = ObjectContext(store: store)
/// let home = Location(context: context)
/// home.name = "Home"
/// try await context.save()
/// ```
public final class DynamoStore: Sendable {
    /// The entities the store holds.
    public let model: StoreModel
    /// The client every request goes through.
    public let client: DynamoClient
    /// Retry behaviour for transactions DynamoDB cancels with `TransactionConflict` (another
    /// transaction held an item). The client's own policy already retries throttling.
    public let conflictRetry: RetryConfiguration
    /// Receives debug lines (requests planned, conflicts, retries); never item values.
    public let logger: Logger
    /// The model version items carry and the migration of older items on load (`nil`: items
    /// carry no version).
    public let modelVersioning: ModelVersioning?
    /// The device's copy (cache and outbox) that saves commit to first, or `nil` for a store
    /// whose saves go straight to DynamoDB (see ``OfflineStore``).
    public let offline: OfflineStore?

    private let classes: ClassRegistry
    private let subscribers = Mutex<Subscribers>(Subscribers())

    /// Makes a store for a model; objects are plain ``ManagedObject``s unless `types` names the
    /// subclass of an entity.
    ///
    /// - Parameters:
    ///   - model: the entities.
    ///   - client: the DynamoDB client.
    ///   - types: typed model classes to instantiate for their entities (see ``ManagedObject/entityName``).
    ///   - conflictRetry: how `TransactionConflict` cancellations are retried (default: 5
    ///     attempts, 50 ms base backoff).
    ///   - logger: the logger.
    ///   - modelVersioning: the model version written on items and the lazy migration of older
    ///     ones (see ``ModelVersioning``).
    ///   - offline: the device's copy saves commit to first (see ``OfflineStore``).
    public init(
        model: StoreModel, client: DynamoClient, types: [ManagedObject.Type] = [],
        conflictRetry: RetryConfiguration = RetryConfiguration(maximumAttempts: 5, baseDelay: .milliseconds(50)),
        logger: Logger = Logger(label: "DynamoStore"), modelVersioning: ModelVersioning? = nil, offline: OfflineStore? = nil
    ) {
        self.model = model
        self.client = client
        self.conflictRetry = conflictRetry
        self.logger = logger
        self.modelVersioning = modelVersioning
        self.offline = offline
        classes = ClassRegistry(types)
    }

    /// Makes a store whose model is derived from typed model classes (see
    /// ``EntityDescription/init(for:)``).
    ///
    /// - Parameters:
    ///   - types: the model classes, one per entity.
    ///   - client: the DynamoDB client.
    ///   - conflictRetry: how `TransactionConflict` cancellations are retried.
    ///   - logger: the logger.
    ///   - modelVersioning: the model version written on items and the lazy migration of older
    ///     ones (see ``ModelVersioning``).
    ///   - offline: the device's copy saves commit to first (see ``OfflineStore``).
    /// - Throws: ``ModelError`` listing every inconsistency of the derived model.
    public convenience init(
        types: [ManagedObject.Type], client: DynamoClient,
        conflictRetry: RetryConfiguration = RetryConfiguration(maximumAttempts: 5, baseDelay: .milliseconds(50)),
        logger: Logger = Logger(label: "DynamoStore"), modelVersioning: ModelVersioning? = nil, offline: OfflineStore? = nil
    ) throws(ModelError) {
        // The description of a class is derived once; a mapping that says otherwise now (a
        // table-name prefix set after first use) would be silently ignored.
        let stale = types.compactMap { type -> String? in
            let derived = type.entityDescription.tableName, now = type.mapping.tableName ?? type.entityName
            return derived == now
                ? nil
                : "\(type.entityName): its mapping now names table '\(now)', but its description was derived with '\(derived)' when the class was first used; set table names (prefixes) before any use of the class"
        }
        if !stale.isEmpty { throw ModelError(problems: stale) }
        let model = try StoreModel(types.map { $0.entityDescription })
        self.init(
            model: model, client: client, types: types, conflictRetry: conflictRetry, logger: logger,
            modelVersioning: modelVersioning, offline: offline)
    }

    /// Every successful save of any context of this store, from now on, one value per save.
    ///
    /// Merge them into a context with ``ObjectContext/mergeChanges(from:)``:
    ///
    /// ```swift
    /// for await changes in store.changes() { try await mainContext.mergeChanges(from: changes) }
    /// ```
    ///
    /// The stream ends when the consuming task stops iterating (it is then unsubscribed).
    public func changes() -> AsyncStream<StoreChanges> {
        let (stream, continuation) = AsyncStream<StoreChanges>.makeStream()
        let token = subscribers.withLock { subscribers in
            subscribers.nextToken += 1
            subscribers.continuations[subscribers.nextToken] = continuation
            return subscribers.nextToken
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.continuations.removeValue(forKey: token) }
        }
        return stream
    }

    /// Sends a save's changes to every subscriber.
    func publish(_ changes: StoreChanges) {
        guard !changes.isEmpty else { return }
        let continuations = subscribers.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(changes) }
    }

    /// The class to instantiate for an entity's objects.
    func objectClass(for entity: EntityDescription) -> ManagedObject.Type {
        classes.types[entity.name] ?? ManagedObject.self
    }
}

private struct Subscribers {
    var nextToken: UInt64 = 0
    var continuations: [UInt64: AsyncStream<StoreChanges>.Continuation] = [:]
}

/// Entity name → model class.
///
/// `@unchecked Sendable`: the dictionary is immutable after `init`, and metatypes carry no
/// mutable state.
private struct ClassRegistry: @unchecked Sendable {
    let types: [String: ManagedObject.Type]

    init(_ list: [ManagedObject.Type]) {
        types = Dictionary(list.map { ($0.entityName, $0) }, uniquingKeysWith: { _, last in last })
    }
}
