import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Testing

/// A typed class with set attributes (the model derives SS/NS/BS from the property types).
final class Bag: ManagedObject {
    @Attribute var id: String
    @Attribute var names: Set<String>
    @Attribute var counts: Set<Int>
    @Attribute var blobs: Set<Data>
}

@Suite struct SetAttributeTests {
    @Test func setPropertiesDeriveSetTypes() {
        let types = Bag.entityDescription.attributes.map(\.type)
        #expect(types == [.string, .stringSet, .numberSet, .dataSet])
    }

    @Test func setsAreStoredAsSSNSBSAndTheEmptySetAsAbsent() async throws {
        let model = try StoreModel([Bag.entityDescription])
        try await withStore(model: model) { fixture in
            let context = fixture.context()
            let bag = ManagedObject(entity: Bag.entityDescription, context: context)
            bag["id"] = "b"
            bag["names"] = Set(["b", "a"])
            bag["counts"] = Set([10, -2])
            bag["blobs"] = Set([Data([1]), Data([0, 2])])
            try await context.save()
            let item = try #require(try await fixture.item("Bag", ["id": .s("b")]))
            #expect(item["names"] == .ss(["a", "b"]))
            #expect(item["counts"] == .ns([DynamoNumber(-2), DynamoNumber(10)]))
            #expect(item["blobs"] == .bs([[0, 2], [1]]))

            bag["names"] = Set<String>()
            bag["counts"] = Set<Int>()
            try await context.save()
            let emptied = try #require(try await fixture.item("Bag", ["id": .s("b")]))
            #expect(emptied["names"] == nil && emptied["counts"] == nil && emptied["blobs"] != nil)

            let other = fixture.context()
            let loaded = try #require(try await other.existingObject(with: bag.objectID))
            #expect(loaded["names"] == nil)
            #expect(loaded["blobs"] as? Set<Data> == [Data([1]), Data([0, 2])])
            // A new object with no set values at all is valid: empty sets are never required.
            let empty = ManagedObject(entity: Bag.entityDescription, context: other)
            empty["id"] = "e"
            try await other.save()
        }
    }
}
