import DynamoAPI

/// The model version every item carries, and the migration that brings older items up to date
/// lazily, as they are loaded.
///
/// Each item a save stores holds ``version`` in the attribute ``attributeName`` (`N`). An item
/// read with an older version (an item without the attribute counts as version 0: it was
/// written before the model had a version) passes through ``migrate`` before it becomes an
/// object's values; the store's row is left as it is until the object is next saved with a
/// change of its own, and that save writes the migrated values (every attribute that differs
/// from the row, attributes the migration dropped removed) and the new version, under the
/// object's version condition. An item of a newer version is read as it is and keeps its
/// version.
///
/// ```swift
/// // Version 2 renamed Spot's `title` to `name`.
/// let versioning = ModelVersioning(version: 2) { item, entity, from in
///     if entity.name == "Spot", from < 2 {
///         item["name"] = item["title"] ?? .s("unnamed")
///         item["title"] = nil
///     }
/// }
/// let store = try DynamoStore(types: [Spot.self], client: client, modelVersioning: versioning)
/// ```
///
/// Fetch predicates are evaluated by DynamoDB on the rows as stored: a predicate on `name`
/// does not match a version-1 row that still holds `title`.
public struct ModelVersioning: Sendable {
    /// The model's version, written on every item a save stores.
    public var version: Int
    /// The attribute that holds the version on each item (default `_modelVersion`); it must
    /// not be the storage name of any attribute or relationship of the model.
    public var attributeName: String
    /// Transforms one item (its attributes in DynamoDB form, by storage name) of an older
    /// version into the current model's form: called with the item, its entity and the version
    /// it was written with. A thrown error fails the load with
    /// ``StoreError/undecodableValue(_:)`` naming the entity and version.
    public var migrate: @Sendable (_ item: inout Item, _ entity: EntityDescription, _ fromVersion: Int) throws -> Void

    /// Makes the versioning of a model.
    ///
    /// - Parameters:
    ///   - version: the current model version (at least 1).
    ///   - attributeName: the item attribute that holds it.
    ///   - migrate: the transformation of older items.
    public init(
        version: Int, attributeName: String = "_modelVersion",
        migrate: @escaping @Sendable (_ item: inout Item, _ entity: EntityDescription, _ fromVersion: Int) throws -> Void
    ) {
        self.version = version
        self.attributeName = attributeName
        self.migrate = migrate
    }

    /// The version an item was written with (0 without the attribute).
    func version(of item: Item) -> Int {
        guard case .n(let number)? = item[attributeName] else { return 0 }
        return Int(number.description) ?? 0
    }

    /// The item in the current model's form, and what the store still holds when it was
    /// migrated (`nil` when the item is current or newer).
    func migrated(_ item: Item, entity: EntityDescription) throws(StoreError) -> (Item, UnmigratedItem?) {
        let stored = version(of: item)
        guard stored < version else { return (item, nil) }
        var migrated = item
        do {
            try migrate(&migrated, entity, stored)
        } catch {
            throw .undecodableValue("\(entity.name) item of model version \(stored): the migration to \(version) failed: \(error)")
        }
        let dropped = Set(item.keys).subtracting(migrated.keys).subtracting([attributeName])
        return (migrated, UnmigratedItem(raw: item, dropped: dropped))
    }
}

/// An object's row as the store still holds it, in an older model version: the next save of
/// the object writes every attribute that differs from it and removes what the migration
/// dropped.
struct UnmigratedItem {
    /// The row as read.
    let raw: Item
    /// Attributes of the row the migration removed.
    let dropped: Set<String>
}

extension ObjectContext {
    /// An item read from the store in the current model's form (see ``ModelVersioning``), and
    /// the row it came from when it was migrated.
    func currentForm(of item: Item, entity: EntityDescription) throws(StoreError) -> (Item, UnmigratedItem?) {
        guard let versioning = store.modelVersioning else { return (item, nil) }
        return try versioning.migrated(item, entity: entity)
    }

    /// Stamps an item a save puts whole with the model version.
    func stampVersion(_ item: inout Item) {
        guard let versioning = store.modelVersioning else { return }
        item[versioning.attributeName] = .n(DynamoNumber(versioning.version))
    }
}
