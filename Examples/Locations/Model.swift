import DynamoStore
import Foundation

/// A place, as in Apple's Core Data sample "Locations": a name and coordinates; it has many
/// check-ins (the AWS article's addition).
final class Location: ManagedObject {
    override class var mapping: EntityMapping {
        EntityMapping(hashKey: "locationId", version: "version", tableName: LocationsExample.tablePrefix + "Locations")
    }
    @Attribute var locationId = UUID()
    @Attribute var name: String
    @Attribute var latitude: Double = 0
    @Attribute var longitude: Double = 0
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "location", deleteRule: .cascade) var checkins: Set<Checkin>
}

/// A visit to a location. The `byLocation` index (partition key: the location relationship,
/// i.e. the location's key; sort key: the time) makes "the check-ins of a location, newest
/// first" a Query.
final class Checkin: ManagedObject {
    override class var mapping: EntityMapping {
        EntityMapping(
            hashKey: "checkinId", version: "version", tableName: LocationsExample.tablePrefix + "Checkins",
            indexes: [.global("byLocation", partitionKey: "location", sortKey: "checkinTime")])
    }
    @Attribute var checkinId = UUID()
    @Attribute var checkinTime = Date()
    @Attribute var comment: String?
    @Attribute var version: Int64 = 0
    @Relationship(inverse: "checkins", minCount: 1) var location: Location?
}
