import DynamoAPI

extension DynamoClient {
    /// Puts a `Codable` value as an item (``ItemEncoder``), replacing any item with its key.
    ///
    /// ```swift
    /// try await client.put(Note(id: "1", text: "hello"), into: "Notes")
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value; it must encode to a map that contains the table's key attributes.
    ///   - tableName: The table.
    ///   - conditionExpression: An optional condition the existing item must meet.
    ///   - encoder: The encoder (for its date strategy).
    /// - Throws: `EncodingError`, or what ``putItem(_:)`` throws (a failed condition is
    ///   `ConditionalCheckFailedException`).
    public func put(
        _ value: some Encodable, into tableName: String, conditionExpression: String? = nil,
        encoder: ItemEncoder = ItemEncoder()
    ) async throws {
        _ = try await putItem(
            PutItemInput(
                tableName: tableName, item: try encoder.encode(value),
                conditionExpression: conditionExpression))
    }

    /// Gets an item by key and decodes it (``ItemDecoder``).
    ///
    /// ```swift
    /// let note = try await client.get(Note.self, from: "Notes", key: ["id": .s("1")])
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - tableName: The table.
    ///   - key: The item's full primary key.
    ///   - consistentRead: Whether to read strongly consistently (default eventually consistent).
    ///   - decoder: The decoder.
    /// - Returns: The decoded item, or `nil` when there is no item with that key.
    /// - Throws: `DecodingError`, or what ``getItem(_:)`` throws.
    public func get<T: Decodable>(
        _ type: T.Type, from tableName: String, key: Item, consistentRead: Bool = false,
        decoder: ItemDecoder = ItemDecoder()
    ) async throws -> T? {
        let output = try await getItem(
            GetItemInput(
                tableName: tableName, key: key,
                consistentRead: consistentRead ? true : nil))
        return try output.item.map { try decoder.decode(type, from: $0) }
    }
}
