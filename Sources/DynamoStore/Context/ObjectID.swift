import DynamoAPI

/// The identity of a stored object: its entity and its primary key.
///
/// An `ObjectID` is a value: it is `Sendable` and `Hashable`, so it crosses between contexts,
/// tasks and actors, where managed objects may not. Pass IDs, then look the object up in the
/// other context with ``ObjectContext/object(with:)``.
///
/// ```swift
/// let id = location.objectID                      // in a background context
/// let same = mainContext.object(with: id)         // a fault in the main context
/// ```
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The entity's name.
    public let entityName: String
    /// The primary key, keyed by DynamoDB attribute name (the key attributes' `storageName`),
    /// exactly as `GetItem` takes it.
    public let key: Item

    /// Makes an identity from an entity name and a primary key.
    ///
    /// - Parameters:
    ///   - entityName: the entity's name.
    ///   - key: the key attributes by DynamoDB attribute name.
    public init(entityName: String, key: Item) {
        self.entityName = entityName
        self.key = key
        isTemporaryID = false
    }

    /// Whether this is the identity of an unsaved object whose key may still change (Core
    /// Data's temporary IDs): it becomes permanent when the object is saved, or earlier with
    /// ``ObjectContext/obtainPermanentIDs(for:)``. Not part of equality: a temporary ID equals
    /// the permanent one with the same key.
    public let isTemporaryID: Bool

    init(entityName: String, key: Item, isTemporary: Bool) {
        self.entityName = entityName
        self.key = key
        isTemporaryID = isTemporary
    }

    /// The same identity, permanent.
    var permanent: ObjectID { ObjectID(entityName: entityName, key: key) }

    /// Entity and key (``isTemporaryID`` is not compared).
    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.entityName == rhs.entityName && lhs.key == rhs.key
    }

    /// Hashes entity and key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entityName)
        hasher.combine(key)
    }

    /// `Entity(key=value, …)`, keys in name order.
    public var description: String {
        let parts = key.keys.sorted().map { "\($0)=\(key[$0].map(Self.render) ?? "")" }
        return "\(entityName)(\(parts.joined(separator: ", ")))"
    }

    private static func render(_ value: AttributeValue) -> String {
        switch value {
        case .s(let text): text
        case .n(let number): number.description
        default: value.description
        }
    }
}
