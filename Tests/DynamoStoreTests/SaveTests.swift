import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Testing

@Suite struct SaveTests {
    @Test func everyValueTypeRoundTripsInItsDocumentedForm() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let sample = Sample(context: context)
            sample.id = "s1"
            sample.text = "hello"
            sample.small = -12
            sample.medium = 70_000
            sample.large = 9_007_199_254_740_993
            sample.plain = 42
            sample.decimal = Decimal(string: "12345678901234567890.123456789")!
            sample.double = 0.1
            sample.float = 1.5
            sample.flag = true
            sample.date = Date(timeIntervalSince1970: 1_700_000_000.25)
            sample.data = Data([0, 1, 255])
            sample.uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
            sample.url = URL(string: "https://example.com/a?b=c")
            sample.address = Address(street: "Main", zip: 12345)
            try await context.save()

            let item = try #require(try await fixture.item("Sample", ["id": .s("s1")]))
            #expect(item["large"] == .n(try DynamoNumber(parsing: "9007199254740993")))
            #expect(item["decimal"] == .n(try DynamoNumber(parsing: "12345678901234567890.123456789")))
            #expect(item["date"] == .s("2023-11-14T22:13:20.250Z"))
            #expect(item["uuid"] == .s("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            #expect(item["data"] == .b([0, 1, 255]))
            #expect(item["flag"] == .bool(true))
            #expect(item["address"] == .m(["street": .s("Main"), "zip": .n(DynamoNumber(12345))]))

            let other = fixture.context()
            let loaded = try #require(try await other.existingObject(with: sample.objectID) as? Sample)
            #expect(loaded !== sample)
            #expect(loaded.text == "hello" && loaded.small == -12 && loaded.medium == 70_000)
            #expect(loaded.large == 9_007_199_254_740_993 && loaded.plain == 42)
            #expect(loaded.decimal == Decimal(string: "12345678901234567890.123456789")!)
            #expect(loaded.double == 0.1 && loaded.float == 1.5 && loaded.flag)
            #expect(loaded.date == Date(timeIntervalSince1970: 1_700_000_000.25))
            #expect(loaded.data == Data([0, 1, 255]) && loaded.uuid == sample.uuid && loaded.url == sample.url)
            #expect(loaded.address == Address(street: "Main", zip: 12345))
            #expect(loaded["small"] as? Int16 == -12)
        }
    }

    @Test func relationshipsAreStoredAsKeysAndSetsOnBothSides() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let home = context.newLocation("Home")
            let first = Checkin(context: context)
            first.location = home
            let second = Checkin(context: context)
            second.location = home
            second.comment = "again"
            let tag = context.newTag(7, "cozy")
            tag.locations.insert(home)
            try await context.save()

            let homeKey: Item = ["id": .s(home.id.uuidString)]
            let homeItem = try #require(try await fixture.item("Locations", homeKey))
            #expect(homeItem["checkins"] == .ss([first.id.uuidString, second.id.uuidString]))
            #expect(homeItem["tags"] == .ns([DynamoNumber(7)]))
            #expect(homeItem["version"] == .n(DynamoNumber(1)))
            let checkinItem = try #require(try await fixture.item("Checkins", ["id": .s(second.id.uuidString)]))
            #expect(checkinItem["location"] == .s(home.id.uuidString))
            #expect(checkinItem["c"] == .s("again"))
            #expect(try await fixture.item("Tag", ["id": .n(DynamoNumber(7))])?["locations"] == .ss([home.id.uuidString]))
            #expect(fixture.transport.count("TransactWriteItems") == 1)

            // Emptying a set removes the attribute (DynamoDB has no empty sets).
            tag.locations = []
            try await context.save()
            #expect(try await fixture.item("Locations", homeKey)?["tags"] == nil)
            #expect(try await fixture.item("Tag", ["id": .n(DynamoNumber(7))])?["locations"] == nil)
        }
    }

    @Test func updateSetsOnlyChangedAttributesAndBumpsTheVersion() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let home = context.newLocation("Home")
            home.latitude = 1
            try await context.save()
            #expect(context.insertedObjects.isEmpty && !context.hasChanges)

            // Another writer changes an attribute this context does not touch, without the version.
            _ = try await fixture.client.updateItem(
                UpdateItemInput(
                    tableName: "Locations", key: ["id": .s(home.id.uuidString)], updateExpression: "SET latitude = :l",
                    expressionAttributeValues: [":l": .n(DynamoNumber(5))]))
            home.name = "Work"
            home.rating = nil
            #expect(context.updatedObjects == [home])
            #expect(home.changedValues["name"] == .attribute(.s("Work")))
            #expect(home.committedValues["name"] == .attribute(.s("Home")))
            try await context.save()

            let item = try #require(try await fixture.item("Locations", ["id": .s(home.id.uuidString)]))
            #expect(item["name"] == .s("Work"))
            #expect(item["latitude"] == .n(DynamoNumber(5)))
            #expect(item["version"] == .n(DynamoNumber(2)))
            #expect(home.version == 2)
            #expect(context.updatedObjects.isEmpty)
        }
    }

    @Test func deleteRemovesTheRow() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            let tag = context.newTag(1, "x")
            try await context.save()
            context.delete(tag)
            #expect(context.deletedObjects == [tag] && tag.isDeleted)
            try await context.save()
            #expect(try await fixture.item("Tag", ["id": .n(DynamoNumber(1))]) == nil)
            #expect(context.registeredObjects.isEmpty)
        }
    }

    @Test func fiveHundredNewObjectsAreSavedInFiveTransactions() async throws {
        try await withStore { fixture in
            let context = fixture.context()
            context.undoManager = nil
            for number in 0..<500 {
                _ = context.newTag(Int64(number), "tag \(number)")
            }
            try await context.save()
            #expect(fixture.transport.count("TransactWriteItems") == 5)
            #expect(context.insertedObjects.isEmpty)
            let scan = try await fixture.client.scan(ScanInput(tableName: "Tag", select: .count))
            #expect(scan.count == 500)
        }
    }

    @Test func datesWithoutMillisecondsFromOtherWritersAreRead() throws {
        #expect(try Date(storedValue: .s("2023-11-14T22:13:20Z")) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try Date(storedValue: .s("2023-11-14T22:13:20.5Z")) == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(throws: StoreError.self) { try Date(storedValue: .s("yesterday")) }
        #expect(throws: StoreError.self) { try Int16(storedValue: .n(DynamoNumber(70_000))) }
        #expect(throws: StoreError.self) { try Double.nan.storedValue() }
    }
}
