import DynamoAPI

/// An output shape with members of attribute values that ``AnswerDecoder`` reads straight from
/// the answer's bytes (with DynamoAPI's `JSONByteReader`) instead of through a `JSONValue` tree.
///
/// Its other members are decoded by the shape itself, as for every output.
protocol ItemBearingOutput: DynamoShape {
    /// The members read from bytes.
    static var itemMembers: [ItemMember<Self>] { get }

    /// ``AnswerDecoder/readingItems(_:from:json:)`` for this shape. A requirement, with the
    /// default below, so that each conforming shape gets its own specialized copy: called
    /// through the protocol, the generic code would run unspecialized.
    static func readingItems(from body: [UInt8], json: inout JSONValue?) -> Self?
}

extension ItemBearingOutput {
    static func readingItems(from body: [UInt8], json: inout JSONValue?) -> Self? {
        AnswerDecoder.readingItems(Self.self, from: body, json: &json)
    }
}

/// A member of an output shape that holds attribute values: its wire name and where it goes.
struct ItemMember<Output> {
    /// How the member's attribute values are laid out, and the property that takes them.
    enum Layout {
        /// One item (GetItem's `Item`, a `LastEvaluatedKey`, the `Attributes` of a write).
        case item(WritableKeyPath<Output, Item?>)
        /// A list of items (`Items`).
        case itemList(WritableKeyPath<Output, [Item]?>)
        /// Item lists by table name (BatchGetItem's `Responses`).
        case itemListsByTable(WritableKeyPath<Output, [String: [Item]]?>)
    }

    /// The member's name on the wire (`Items`).
    var name: String
    var layout: Layout

    init(_ name: String, _ layout: Layout) {
        self.name = name
        self.layout = layout
    }
}

extension GetItemOutput: ItemBearingOutput {
    static var itemMembers: [ItemMember<Self>] { [ItemMember("Item", .item(\.item))] }
}

extension QueryOutput: ItemBearingOutput {
    static var itemMembers: [ItemMember<Self>] {
        [ItemMember("Items", .itemList(\.items)), ItemMember("LastEvaluatedKey", .item(\.lastEvaluatedKey))]
    }
}

extension ScanOutput: ItemBearingOutput {
    static var itemMembers: [ItemMember<Self>] {
        [ItemMember("Items", .itemList(\.items)), ItemMember("LastEvaluatedKey", .item(\.lastEvaluatedKey))]
    }
}

extension ExecuteStatementOutput: ItemBearingOutput {
    static var itemMembers: [ItemMember<Self>] {
        [ItemMember("Items", .itemList(\.items)), ItemMember("LastEvaluatedKey", .item(\.lastEvaluatedKey))]
    }
}

extension BatchGetItemOutput: ItemBearingOutput {
    static var itemMembers: [ItemMember<Self>] { [ItemMember("Responses", .itemListsByTable(\.responses))] }
}

extension PutItemOutput: ItemBearingOutput {
    static var itemMembers: [ItemMember<Self>] { [ItemMember("Attributes", .item(\.attributes))] }
}

extension UpdateItemOutput: ItemBearingOutput {
    static var itemMembers: [ItemMember<Self>] { [ItemMember("Attributes", .item(\.attributes))] }
}

extension DeleteItemOutput: ItemBearingOutput {
    static var itemMembers: [ItemMember<Self>] { [ItemMember("Attributes", .item(\.attributes))] }
}
