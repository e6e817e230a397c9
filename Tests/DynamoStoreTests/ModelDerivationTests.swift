import DynamoStore
import Testing

@Suite struct ModelDerivationTests {
    @Test func typedClassesDeriveTheirEntities() throws {
        let model = try StoreModel(Models.types.map(\.entityDescription))
        let location = try #require(model.entity(named: "Location"))
        #expect(location.tableName == "Locations")
        #expect(location.versionAttribute == "version")
        #expect(location.attributes.map(\.name) == ["id", "name", "latitude", "rating", "version"])
        #expect(location.attribute(named: "latitude")?.isOptional == true)
        #expect(location.attribute(named: "id")?.type == .uuid)
        let checkins = try #require(location.relationship(named: "checkins"))
        #expect(checkins.isToMany && checkins.destination == "Checkin" && checkins.deleteRule == .cascade)
        let checkin = try #require(model.entity(named: "Checkin"))
        #expect(checkin.attribute(named: "comment")?.storageName == "c")
        #expect(checkin.relationship(named: "location")?.minCount == 1)
        #expect(checkin.relationship(named: "location")?.isToMany == false)
        #expect(model.entity(named: "Sample")?.attribute(named: "address")?.type == .codable)
        #expect(model.entity(named: "Tag")?.attribute(named: "id")?.type == .int64)
    }

    @Test func detachedObjectsKeepValuesAndInverses() {
        let home = Location()
        home.name = "Home"
        let visit = Checkin()
        visit.location = home
        #expect(home.checkins == [visit])
        #expect(home.name == "Home")
        #expect(home["name"] as? String == "Home")
        home["latitude"] = 48.5
        #expect(home.latitude == 48.5)
        let work = Location()
        work.checkins.insert(visit)
        #expect(visit.location === work)
        #expect(home.checkins.isEmpty)
    }
}
