import DynamoStore
import Foundation

/// The seeds' sample: a Location has many Checkins.
final class Location: ManagedObject {
    override class var mapping: EntityMapping {
        EntityMapping(
            hashKey: "id", version: "version", tableName: "Locations",
            indexes: [.global("byName", partitionKey: "name")])
    }
    @Attribute var id = UUID()
    @Attribute var name: String
    @Attribute var latitude: Double?
    @Attribute var rating: Decimal?
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "location", deleteRule: .cascade) var checkins: Set<Checkin>
    @Relationship(inverse: "locations") var tags: Set<Tag>
}

/// A check-in at one location.
final class Checkin: ManagedObject {
    override class var mapping: EntityMapping { EntityMapping(hashKey: "id", version: "version", tableName: "Checkins") }
    @Attribute var id = UUID()
    @Attribute var at = Date(timeIntervalSince1970: 1_700_000_000)
    @Attribute(storageName: "c") var comment: String?
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "checkins", minCount: 1) var location: Location?
}

/// Many-to-many with Location; numeric keys, no version attribute.
final class Tag: ManagedObject {
    @Attribute var id: Int64
    @Attribute var label: String
    @Relationship(inverse: "tags") var locations: Set<Location>
}

/// A Codable value stored as a map.
struct Address: Codable, Hashable, PersistentCodable {
    var street: String
    var zip: Int
}

/// Every value type the store supports.
final class Sample: ManagedObject {
    @Attribute var id: String
    @Attribute var text: String?
    @Attribute var small: Int16 = 0
    @Attribute var medium: Int32 = 0
    @Attribute var large: Int64 = 0
    @Attribute var plain: Int = 0
    @Attribute var decimal: Decimal = 0
    @Attribute var double: Double = 0
    @Attribute var float: Float = 0
    @Attribute var flag = false
    @Attribute var date: Date?
    @Attribute var data: Data?
    @Attribute var uuid: UUID?
    @Attribute var url: URL?
    @Attribute var address: Address?
}

enum Models {
    static let types: [ManagedObject.Type] = [Location.self, Checkin.self, Tag.self, Sample.self, Owner.self, Pet.self]
}

/// An owner may not be deleted while it has pets (deny); a custom rule requires a name.
final class Owner: ManagedObject {
    @Attribute var id: String
    @Attribute var name: String
    @Relationship(inverse: "owner", deleteRule: .deny, maxCount: 2) var pets: Set<Pet>

    override func validateForSave() throws {
        if name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError(issues: [.init(objectID: objectID, property: "name", message: "must not be blank")])
        }
    }
}

/// A pet's delete leaves its owner's set as it is (no action).
final class Pet: ManagedObject {
    @Attribute var id: String
    @Attribute(range: 0...30) var age: Int = 0
    @Attribute(storageName: "n", range: 1...12) var nickname: String?
    @Relationship(inverse: "pets", deleteRule: .noAction) var owner: Owner?
}

extension ObjectContext {
    /// Inserts a tag.
    @discardableResult
    func newTag(_ id: Int64, _ label: String = "t") -> Tag {
        let tag = Tag(context: self)
        tag.id = id
        tag.label = label
        return tag
    }

    /// Inserts a location.
    @discardableResult
    func newLocation(_ name: String) -> Location {
        let location = Location(context: self)
        location.name = name
        return location
    }
}
