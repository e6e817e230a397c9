import DynamoAPI
@testable import DynamoEngine
import Foundation
import Testing

/// `TableDefinition` shares one box between copies: a copy must still behave as a value, the
/// index lists worked out in the box must follow every change, and the catalog's JSON must be
/// exactly the fields' own.
@Suite struct TableDefinitionValueTests {
    static func index(_ name: String, global: Bool = true) -> IndexDefinition {
        IndexDefinition(
            name: name, partitionKey: KeyAttribute(name: "g_\(name)", type: .string), sortKey: nil,
            projectionType: .keysOnly, isGlobal: global)
    }

    static func definition() -> TableDefinition {
        TableDefinition(
            .init(
                name: "Things", storageID: 7, tableID: "id", partitionKey: KeyAttribute(name: "pk", type: .string),
                sortKey: nil, attributeDefinitions: [KeyAttribute(name: "pk", type: .string)],
                creationDateTime: 1_700_000_000.5, billingMode: .payPerRequest, billingModeLastUpdate: nil,
                throughput: ThroughputSettings(readCapacityUnits: 0, writeCapacityUnits: 0),
                localIndexes: [index("local", global: false)], globalIndexes: [index("zeta"), index("alpha")]))
    }

    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = Self.definition()
        var copy = original
        copy.name = "Other"
        copy.tags["team"] = "a"
        copy.globalIndexes[0].status = .deleting
        #expect(original.name == "Things")
        #expect(original.tags.isEmpty)
        #expect(original.globalIndexes[0].status == .active)
        #expect(copy.name == "Other")
        #expect(copy.tags == ["team": "a"])
        #expect(copy.globalIndexes[0].status == .deleting)
    }

    @Test func theIndexListsFollowEveryChange() {
        var definition = Self.definition()
        #expect(definition.indexes.map(\.name) == ["local", "zeta", "alpha"])
        #expect(definition.indexesByName.map(\.name) == ["alpha", "local", "zeta"])
        definition.globalIndexes.append(Self.index("beta"))
        definition.localIndexes = []
        #expect(definition.indexes.map(\.name) == ["zeta", "alpha", "beta"])
        #expect(definition.indexesByName.map(\.name) == ["alpha", "beta", "zeta"])
        definition.globalIndexes[0].name = "aardvark"
        #expect(definition.indexesByName.map(\.name) == ["aardvark", "alpha", "beta"])
    }

    @Test func theCatalogJSONIsTheFieldsOwnAndRoundTrips() throws {
        var definition = Self.definition()
        definition.streamViewType = .newImage
        definition.ttlAttribute = "expires"
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(definition)
        #expect(json == (try encoder.encode(definition.fields)))
        let decoded = try JSONDecoder().decode(TableDefinition.self, from: json)
        #expect(try encoder.encode(decoded) == json)
        #expect(decoded.indexesByName.map(\.name) == ["alpha", "local", "zeta"])
        #expect(decoded.streamViewType == .newImage)
    }
}
