import DynamoAPI

/// Decodes the body of a successful answer into the operation's output shape.
///
/// The generic way is to parse the body into a `JSONValue` tree and decode the shape from it.
/// For an output with attribute-value members (an ``ItemBearingOutput``: Query's `Items`,
/// GetItem's `Item`, …) most of that tree is one dictionary per item and per `{"S": …}` wrapper,
/// built only to be decoded and freed again; so those members are read straight from the bytes
/// by DynamoAPI's `JSONByteReader` (the reader of the server's request fast path), and only the
/// others (`Count`, `ConsumedCapacity`, …) are parsed into `JSONValue`s for the shape to decode.
/// The reader reads only attribute values whose generic decode cannot fail, and bails on anything
/// else (`null`, a second type member, an empty or repeating set, a repeated name, nesting deeper
/// than its limit, …). Then, or when the shape's decode of the other members fails, the whole
/// body is decoded the generic way: the output, and any error, are always the generic path's.
enum AnswerDecoder {
    /// Decodes `body` as an `Output`.
    ///
    /// - Parameters:
    ///   - output: The shape to decode.
    ///   - body: The answer's bytes; an empty body is an empty object.
    ///   - json: Set to the answer's members as JSON as soon as they are parsed, for observation
    ///     (`ConsumedCapacity`); the members read from bytes are left out.
    /// - Throws: ``DynamoClientError/undecodableResponse(_:)`` when the body is not JSON,
    ///   `DynamoError` (`SerializationException`, `ValidationException`) when a member does not
    ///   fit the shape.
    static func decode<Output: DynamoShape>(
        _ output: Output.Type, from body: [UInt8], json: inout JSONValue?
    ) throws -> Output {
        if !body.isEmpty, let bearing = Output.self as? any ItemBearingOutput.Type,
            let decoded = bearing.readingItems(from: body, json: &json)
        {
            return decoded as! Output
        }
        return try decodeGenerically(output, from: body, json: &json)
    }

    /// The generic path: the whole body parsed into a `JSONValue`, then decoded by the shape.
    static func decodeGenerically<Output: DynamoShape>(
        _ output: Output.Type, from body: [UInt8], json: inout JSONValue?
    ) throws -> Output {
        do {
            json = body.isEmpty ? .object([:]) : try JSONValue(parsing: body)
        } catch {
            throw DynamoClientError.undecodableResponse("\(Output.shapeName): \(error)")
        }
        return try Output(json: json!)
    }

    /// The fast path: the item members read from the bytes, the others decoded by the shape;
    /// `nil` when the generic path must decide.
    static func readingItems<Output: ItemBearingOutput>(
        _ output: Output.Type, from body: [UInt8], json: inout JSONValue?
    ) -> Output? {
        let itemMembers = Output.itemMembers
        guard let (others, read) = members(of: body, itemMembers: itemMembers) else { return nil }
        let othersJSON = JSONValue.object(others)
        guard var decoded = try? Output(json: othersJSON) else { return nil }
        json = othersJSON
        for position in itemMembers.indices {
            guard let value = read[position] else { continue }
            switch (itemMembers[position].layout, value) {
            case (.item(let path), .item(let item)): decoded[keyPath: path] = item
            case (.itemList(let path), .itemList(let items)): decoded[keyPath: path] = items
            case (.itemListsByTable(let path), .itemListsByTable(let tables)): decoded[keyPath: path] = tables
            default: return nil
            }
        }
        return decoded
    }

    /// A member's attribute values as read.
    enum ReadMember {
        case item(Item)
        case itemList([Item])
        case itemListsByTable([String: [Item]])
    }

    /// Splits the answer's top-level object: the other members parsed into `JSONValue`s, and the
    /// value read for each of `itemMembers` (`nil` when absent or when its value is not of its
    /// layout's JSON type, such as `null`: the shape decodes that one). A repeated member keeps
    /// its last value, as in the parser. `nil` when the generic path must decide.
    private static func members<Output>(
        of body: [UInt8], itemMembers: [ItemMember<Output>]
    ) -> (others: [String: JSONValue], read: [ReadMember?])? {
        body.withUnsafeBytes { bytes in
            var reader = JSONByteReader(bytes)
            var others: [String: JSONValue] = [:]
            var read = [ReadMember?](repeating: nil, count: itemMembers.count)
            do {
                try reader.expect(UInt8(ascii: "{"))
                if !reader.consume(UInt8(ascii: "}")) {
                    repeat {
                        let name = try reader.string()
                        try reader.expect(UInt8(ascii: ":"))
                        var position = itemMembers.startIndex
                        while position < itemMembers.endIndex, itemMembers[position].name != name { position += 1 }
                        let isItemMember = position < itemMembers.endIndex
                        if isItemMember, let value = try readMember(itemMembers[position].layout, with: &reader) {
                            read[position] = value
                            others[name] = nil
                        } else {
                            guard let value = try? JSONValue(parsing: try reader.skipValue()) else { return nil }
                            if isItemMember { read[position] = nil }
                            others[name] = value
                        }
                    } while try reader.continues(before: UInt8(ascii: "}"))
                }
                guard reader.atEnd() else { return nil }
            } catch {
                return nil
            }
            return (others, read)
        }
    }

    /// Reads a member of `layout`; `nil` (nothing consumed) when its value is of another JSON
    /// type.
    private static func readMember<Output>(
        _ layout: ItemMember<Output>.Layout, with reader: inout JSONByteReader
    ) throws(FastDecodeBail) -> ReadMember? {
        switch layout {
        case .item:
            guard reader.peek() == UInt8(ascii: "{") else { return nil }
            return .item(try reader.attributeMap())
        case .itemList:
            guard reader.peek() == UInt8(ascii: "[") else { return nil }
            return .itemList(try reader.itemList())
        case .itemListsByTable:
            guard reader.peek() == UInt8(ascii: "{") else { return nil }
            return .itemListsByTable(try reader.itemListsByTable())
        }
    }
}
