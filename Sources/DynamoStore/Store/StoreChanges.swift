/// What one successful save of one context changed in the store.
///
/// ``DynamoStore/changes()`` yields one value per save; another context applies it with
/// ``ObjectContext/mergeChanges(from:)``.
public struct StoreChanges: Sendable, Hashable {
    /// Objects the save created.
    public var inserted: Set<ObjectID>
    /// Objects the save changed.
    public var updated: Set<ObjectID>
    /// Objects the save deleted.
    public var deleted: Set<ObjectID>
    /// The context whose save produced the changes (it does not merge its own saves).
    var origin: ObjectIdentifier?

    /// Makes a change set.
    public init(inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Equal when the same objects changed (whichever context saved them).
    public static func == (lhs: StoreChanges, rhs: StoreChanges) -> Bool {
        lhs.inserted == rhs.inserted && lhs.updated == rhs.updated && lhs.deleted == rhs.deleted
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(inserted)
        hasher.combine(updated)
        hasher.combine(deleted)
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
