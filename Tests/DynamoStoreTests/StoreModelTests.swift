import DynamoStore
import Testing

@Suite struct StoreModelTests {
    static let location = EntityDescription(
        "Location", hashKey: "id", versionAttribute: "version",
        attributes: [.init("id", .uuid), .init("name", .string), .init("version", .int64)],
        relationships: [.init("checkins", to: "Checkin", inverse: "location", toMany: true, deleteRule: .cascade)],
        indexes: [.global("byName", partitionKey: "name")])
    static let checkin = EntityDescription(
        "Checkin", hashKey: "id",
        attributes: [.init("id", .uuid), .init("at", .date), .init("note", .string, isOptional: true)],
        relationships: [.init("location", to: "Location", inverse: "checkins", minCount: 1)])

    @Test func consistentModelIsAccepted() throws {
        let model = try StoreModel([Self.location, Self.checkin])
        #expect(model.entity(named: "Checkin")?.tableName == "Checkin")
        #expect(model.entity(named: "Location")?.relationship(named: "checkins")?.maxCount == nil)
        #expect(model.entity(named: "Checkin")?.relationship(named: "location")?.maxCount == 1)
    }

    @Test func everyProblemIsReported() {
        var broken = Self.checkin
        broken.hashKey = "missing"
        broken.relationships = [.init("location", to: "Location", inverse: "visits")]
        broken.indexes = [.local("byAt", hashKey: "id", sortKey: "note"), .global("byBlob", partitionKey: "blob")]
        var location = Self.location
        location.versionAttribute = "name"
        #expect(
            throws: ModelError(problems: [
                "Location.name: the version attribute must be a non-optional int64 attribute",
                "Location.checkins: inverse Checkin.location does not point back",
                "Checkin.missing: key attribute is not an attribute of the entity",
                "Checkin.location: inverse 'visits' is not a relationship of Location",
                "Checkin index byAt: a local index's partition key is the table's hash key 'missing'",
                "Checkin index byBlob: key 'blob' is not an attribute or to-one relationship of Checkin",
            ])
        ) {
            try StoreModel([location, broken])
        }
    }
}
