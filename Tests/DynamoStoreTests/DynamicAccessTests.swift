import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Testing

/// Generic code without model classes: entities described in code, values by name.
@Suite struct DynamicAccessTests {
    static let model = try! StoreModel([
        EntityDescription(
            "Author", tableName: "Authors", hashKey: "name", versionAttribute: "rev",
            attributes: [.init("name", .string), .init("born", .int16, isOptional: true), .init("rev", .int64)],
            relationships: [.init("books", to: "Book", inverse: "authors", toMany: true)]),
        EntityDescription(
            "Book", hashKey: "isbn", attributes: [.init("isbn", .int64), .init("title", .string, storageName: "t")],
            relationships: [.init("authors", to: "Author", inverse: "books", toMany: true)]),
    ])

    @Test func valuesAndRelationshipsByName() async throws {
        try await withStore { fixture in
            let store = DynamoStore(model: Self.model, client: fixture.client)
            try await store.createTables(pollInterval: .milliseconds(10))
            let context = ObjectContext(store: store)
            let author = ManagedObject(entity: try #require(Self.model.entity(named: "Author")), context: context)
            author["name"] = "Le Guin"
            author["born"] = 1929
            let book = ManagedObject(entity: try #require(Self.model.entity(named: "Book")), context: context)
            book["isbn"] = 9780441478125 as Int64
            book["title"] = "The Left Hand of Darkness"
            book["authors"] = Set([author])
            #expect((author["books"] as? Set<ManagedObject>) == [book])
            #expect(throws: StoreError.self) { try author.setValue("x", forKey: "born") }
            #expect(throws: StoreError.self) { try author.setValue(Int.max, forKey: "born") }
            #expect(throws: StoreError.unknownProperty("Author.nope")) { try author.value(forKey: "nope") }
            try await context.save()

            let item = try #require(try await fixture.item("Book", ["isbn": .n(DynamoNumber(9780441478125))]))
            #expect(item["t"] == .s("The Left Hand of Darkness") && item["authors"] == .ss(["Le Guin"]))
            #expect(try await fixture.item("Authors", ["name": .s("Le Guin")])?["rev"] == .n(DynamoNumber(1)))

            let other = ObjectContext(store: store)
            let loaded = try #require(try await other.existingObject(with: author.objectID))
            #expect(loaded["born"] as? Int16 == 1929)
            let books = try #require(loaded["books"] as? Set<ManagedObject>)
            try await other.load(books)
            #expect(books.first?["title"] as? String == "The Left Hand of Darkness")
        }
    }

    @Test func entitiesWithARangeKeyAreIdentifiedByBothKeys() async throws {
        try await withStore { fixture in
            let entity = EntityDescription(
                "Event", hashKey: "stream", rangeKey: "seq", versionAttribute: "v",
                attributes: [.init("stream", .string), .init("seq", .int32), .init("body", .string), .init("v", .int64)])
            let store = DynamoStore(model: try StoreModel([entity]), client: fixture.client)
            try await store.createTables(pollInterval: .milliseconds(10))
            let context = ObjectContext(store: store)
            for seq in 1...2 {
                let event = ManagedObject(entity: entity, context: context)
                event["stream"] = "s"
                event["seq"] = seq
                event["body"] = "event \(seq)"
            }
            try await context.save()
            let second = ObjectID(entityName: "Event", key: ["stream": .s("s"), "seq": .n(DynamoNumber(2))])
            let other = ObjectContext(store: store)
            let event = try #require(try await other.existingObject(with: second))
            #expect(event["body"] as? String == "event 2")
            event["body"] = "changed"
            try await other.save()
            let stored = try await fixture.client.getItem(GetItemInput(tableName: "Event", key: second.key)).item
            #expect(stored?["body"] == .s("changed") && stored?["v"] == .n(DynamoNumber(2)))
            #expect(
                try await fixture.client.getItem(GetItemInput(tableName: "Event", key: ["stream": .s("s"), "seq": .n(DynamoNumber(1))])).item?["body"]
                    == .s("event 1"))
        }
    }
}
