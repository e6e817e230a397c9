import DynamoAPI
import Foundation
import Testing
@testable import DynamoClient

/// Round trips between Swift types and items, and the exact attribute shapes produced.
struct ItemCodingTests {
    struct Address: Codable, Equatable {
        var street: String
        var zip: Int
    }

    struct Person: Codable, Equatable {
        var id: UUID
        var name: String
        var age: Int
        var height: Double
        var admin: Bool
        var nickname: String?
        var address: Address
        var previous: [Address]
        var tags: DynamoSet<String>
        var lucky: DynamoSet<Int>
        var keys: DynamoSet<Data>
        var avatar: Data
        var born: Date
        var scores: [String: Int]
        var website: URL?
        var balance: Decimal
    }

    static let person = Person(
        id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, name: "Ada", age: 36, height: 1.65,
        admin: true, nickname: nil, address: Address(street: "1 Loop", zip: 12345),
        previous: [Address(street: "Old Rd", zip: 1)], tags: ["math", "engines"], lucky: [7, 13],
        keys: [Data([1, 2]), Data([3])], avatar: Data([0xFF, 0x00]), born: Date(timeIntervalSince1970: 1_700_000_000.5),
        scores: ["chess": 9], website: URL(string: "https://example.com/ada"), balance: Decimal(string: "12.50")!)

    @Test func roundTrip() throws {
        let item = try ItemEncoder().encode(Self.person)
        #expect(try ItemDecoder().decode(Person.self, from: item) == Self.person)
    }

    @Test func attributeShapes() throws {
        let item = try ItemEncoder().encode(Self.person)
        #expect(item["id"] == .s("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(item["age"] == .n(try DynamoNumber(parsing: "36")))
        #expect(item["height"] == .n(try DynamoNumber(parsing: "1.65")))
        #expect(item["admin"] == .bool(true))
        #expect(item["nickname"] == nil)
        #expect(item["address"] == .m(["street": .s("1 Loop"), "zip": .n(DynamoNumber(12345))]))
        #expect(item["previous"] == .l([.m(["street": .s("Old Rd"), "zip": .n(DynamoNumber(1))])]))
        #expect(item["tags"] == .ss(["math", "engines"]))
        #expect(item["lucky"] == .ns([DynamoNumber(13), DynamoNumber(7)]))
        #expect(item["keys"] == .bs([[3], [1, 2]]))
        #expect(item["avatar"] == .b([0xFF, 0x00]))
        #expect(item["born"] == .s("2023-11-14T22:13:20.500Z"))
        #expect(item["scores"] == .m(["chess": .n(DynamoNumber(9))]))
        #expect(item["website"] == .s("https://example.com/ada"))
        #expect(item["balance"] == .n(try DynamoNumber(parsing: "12.5")))
    }

    struct Sparse: Codable, Equatable {
        var id: String
        var note: String?
        var tags: DynamoSet<String>
    }

    @Test func missingNullAndEmptySet() throws {
        let encoded = try ItemEncoder().encode(Sparse(id: "1", note: nil, tags: []))
        #expect(encoded == ["id": .s("1")])
        #expect(try ItemDecoder().decode(Sparse.self, from: ["id": .s("1"), "note": .null]) == Sparse(id: "1", note: nil, tags: []))
    }

    struct Stamped: Codable, Equatable {
        var at: Date
    }

    @Test func dateStrategies() throws {
        var encoder = ItemEncoder()
        encoder.dateStrategy = .secondsSince1970
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try encoder.encode(Stamped(at: date)) == ["at": .n(DynamoNumber(1_700_000_000))])
        encoder.dateStrategy = .millisecondsSince1970
        #expect(try encoder.encode(Stamped(at: date)) == ["at": .n(DynamoNumber(1_700_000_000_000))])
        // The decoder reads either form.
        #expect(try ItemDecoder().decode(Stamped.self, from: ["at": .n(DynamoNumber(1_700_000_000))]) == Stamped(at: date))
        #expect(try ItemDecoder().decode(Stamped.self, from: ["at": .s("2023-11-14T22:13:20Z")]) == Stamped(at: date))
    }

    @Test func listsDecodeFromSets() throws {
        struct Holder: Codable { var values: [String] }
        #expect(try ItemDecoder().decode(Holder.self, from: ["values": .ss(["a"])]).values == ["a"])
    }

    @Test func errorsNameThePath() throws {
        #expect(throws: DecodingError.self) {
            try ItemDecoder().decode(Address.self, from: ["street": .s("x"), "zip": .s("not a number")])
        }
        #expect(throws: DecodingError.self) { try ItemDecoder().decode(Address.self, from: ["street": .s("x")]) }
        #expect(throws: DecodingError.self) {
            try ItemDecoder().decode(Address.self, from: ["street": .s("x"), "zip": .n(try DynamoNumber(parsing: "1.5"))])
        }
        struct Bad: Codable { var value: Double }
        #expect(throws: EncodingError.self) { try ItemEncoder().encode(Bad(value: .nan)) }
        #expect(throws: EncodingError.self) { try ItemEncoder().encode([1, 2]) }
    }

    @Test func setsWithOtherCodersAreArrays() throws {
        let json = try JSONEncoder().encode(DynamoSet(["only"]))
        #expect(String(decoding: json, as: UTF8.self) == #"["only"]"#)
        #expect(try JSONDecoder().decode(DynamoSet<String>.self, from: json) == ["only"])
    }
}
