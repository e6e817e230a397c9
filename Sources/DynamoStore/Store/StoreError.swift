/// A misuse of the store or a value that cannot be stored or read back.
///
/// DynamoDB's own errors surface as `DynamoError`; save outcomes as ``ValidationError``,
/// ``MergeConflictError`` and ``PartialSaveError``.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model has no entity of this name.
    case unknownEntity(String)
    /// The entity has no property of this name (`Entity.property`).
    case unknownProperty(String)
    /// A value of the wrong type for a property, or one DynamoDB cannot store (NaN, …).
    case invalidValue(String)
    /// A stored attribute that does not decode as the model's type.
    case undecodableValue(String)
    /// The object belongs to another context (or none); objects never cross contexts.
    case wrongContext(ObjectID)
    /// The object's row was deleted in the store (raised only when the context's
    /// ``ObjectContext/deletedObjectHandling`` is ``DeletedObjectHandling/throwError``).
    case objectDeletedInStore(ObjectID)
    /// A key attribute of an object that is already stored was changed.
    case keyChanged(ObjectID)
    /// A property of a fault was read before the fault was loaded (`try await object.load()`).
    case notLoaded(ObjectID, property: String)
    /// A table has no DynamoDB stream to follow (``DynamoStore/enableChangeStreams(pollInterval:)``
    /// turns them on).
    case streamNotEnabled(String)
    /// A similarity fetch (``ObjectContext/fetchNearest(_:index:to:k:where:)``) the store refuses
    /// before sending it: an index the entity does not have, a missing partition-key equality,
    /// an equality on a property outside the index's search schema, a vector of the wrong length
    /// or with a non-finite component, `k` outside 1…100.
    case invalidVectorSearch(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unknownEntity(let name): "the model has no entity '\(name)'"
        case .unknownProperty(let path): "no property \(path)"
        case .invalidValue(let detail): "invalid value: \(detail)"
        case .undecodableValue(let detail): "stored value does not decode: \(detail)"
        case .wrongContext(let id): "\(id) belongs to another context"
        case .objectDeletedInStore(let id): "\(id) was deleted in the store"
        case .keyChanged(let id): "\(id): the key of a stored object cannot change; delete it and insert a new one"
        case .notLoaded(let id, let property):
            "\(id) is a fault: load it (try await object.load()) before reading '\(property)'"
        case .streamNotEnabled(let table):
            "table '\(table)' has no stream: call store.enableChangeStreams() or create it with a StreamSpecification"
        case .invalidVectorSearch(let detail): "invalid vector search: \(detail)"
        }
    }
}
