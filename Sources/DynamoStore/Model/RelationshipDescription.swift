/// What happens to the destination objects when the source object is deleted.
public enum DeleteRule: String, Sendable, Hashable {
    /// The destinations stay; their inverse no longer points at the deleted object.
    case nullify
    /// The destinations are deleted too, in the same save.
    case cascade
    /// The delete is refused (validation fails) while any destination exists.
    case deny
    /// Nothing is done to the destinations; their inverse may dangle.
    case noAction
}

/// A relationship from one entity to another (to-one or to-many), stored as the destination's
/// key (to-one) or a DynamoDB set of keys (to-many) in the source item.
public struct RelationshipDescription: Sendable, Hashable {
    /// The property name.
    public var name: String
    /// The attribute name in the DynamoDB item (defaults to `name`).
    public var storageName: String
    /// The destination entity's name.
    public var destination: String
    /// The inverse relationship's name on the destination entity, if the model declares one.
    public var inverse: String?
    /// Whether the relationship holds many destinations.
    public var isToMany: Bool
    /// What deleting the source does to the destinations.
    public var deleteRule: DeleteRule
    /// The smallest allowed number of destinations (a required to-one has 1).
    public var minCount: Int
    /// The largest allowed number of destinations, or `nil` for no limit.
    public var maxCount: Int?

    /// Describes a relationship.
    ///
    /// - Parameters:
    ///   - name: the property name.
    ///   - destination: the destination entity's name.
    ///   - inverse: the inverse relationship's name, if any.
    ///   - toMany: whether it holds many destinations.
    ///   - deleteRule: what deleting the source does (Core Data's default: nullify).
    ///   - minCount: the minimum number of destinations.
    ///   - maxCount: the maximum number of destinations (`nil`: unlimited; to-one: 1).
    ///   - storageName: the DynamoDB attribute name, when it differs from `name`.
    public init(
        _ name: String, to destination: String, inverse: String? = nil, toMany: Bool = false,
        deleteRule: DeleteRule = .nullify, minCount: Int = 0, maxCount: Int? = nil,
        storageName: String? = nil
    ) {
        self.name = name
        self.storageName = storageName ?? name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = toMany
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = toMany ? maxCount : 1
    }
}
