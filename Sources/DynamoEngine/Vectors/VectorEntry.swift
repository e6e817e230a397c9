import DynamoAPI

/// What a vector index holds for one item: its vector at f32 precision, the encoded value of
/// its `HASH` attribute (empty without one) and of each inline filter.
///
/// Built from an item by ``VectorIndexDefinition/entry(of:)``, which applies the service's write
/// rules (developer guide, "Writing items with vector data"): an item without the vector
/// attribute, or without the `HASH` attribute, is not in the index and is written; a vector that
/// is not a list of `Dimensions` numbers, or a search-schema value of another type than its
/// definition (or an empty `HASH` string or binary), refuses the write.
struct VectorEntry: Equatable {
    /// `KeyEncoding` bytes of the `HASH` value; empty when the schema has no `HASH` element.
    var partition: [UInt8]
    /// The inline filters' values, in schema order (see ``encodeFilters(_:)``).
    var filters: [UInt8]
    /// The vector's little-endian f32 bytes (4 × dimensions).
    var vector: [UInt8]
    /// The DynamoDB size of the item as the index projects it (for `IndexSizeBytes`).
    var size: Int

    /// The inline filters' values as stored: per filter one byte (`0` absent, `1` present), then
    /// for a present one its length (4 bytes, little endian) and its `KeyEncoding` bytes. Two
    /// items' filters compare equal byte for byte exactly when their values are equal.
    static func encodeFilters(_ values: [[UInt8]?]) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in values {
            guard let value else {
                bytes.append(0)
                continue
            }
            bytes.append(1)
            let count = UInt32(value.count)
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
            bytes.append(contentsOf: value)
        }
        return bytes
    }

    /// The inline filters' values back from ``encodeFilters(_:)``'s bytes (`nil` for an absent one).
    static func decodeFilters(_ bytes: UnsafeRawBufferPointer, count: Int) -> [ArraySlice<UInt8>?] {
        var values: [ArraySlice<UInt8>?] = []
        values.reserveCapacity(count)
        let all = Array(bytes)
        var position = 0
        for _ in 0..<count {
            guard position < all.count, all[position] == 1 else {
                values.append(nil)
                position += 1
                continue
            }
            var length = 0
            for offset in 0..<4 { length |= Int(all[position + 1 + offset]) << (8 * offset) }
            let start = position + 5
            values.append(all[start..<start + length])
            position = start + length
        }
        return values
    }

    /// The f32 values of a vector attribute, or `nil` when it is not a list of numbers that a
    /// finite f32 holds: the position and type of the first bad element, or `-1` for a value
    /// that is not a list at all.
    static func floats(of value: AttributeValue) -> Result<[Float], BadVector> {
        guard case .l(let elements) = value else { return .failure(BadVector(position: -1, actual: value.typeDescriptor)) }
        var floats: [Float] = []
        floats.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            guard case .n(let number) = element, let float = number.floatValue else {
                return .failure(BadVector(position: position, actual: element.typeDescriptor))
            }
            floats.append(float)
        }
        return .success(floats)
    }

    /// Where a vector attribute stopped being a vector.
    struct BadVector: Error {
        /// The element's position, or `-1` when the attribute is not a list.
        var position: Int
        /// The offending value's type descriptor (`S`, `N` for a number no f32 holds …).
        var actual: String
    }

    /// `floats` as stored: little-endian f32 bytes.
    static func bytes(of floats: [Float]) -> [UInt8] {
        #if _endian(little)
            // The floats' own memory is the stored form: one copy.
            return floats.withUnsafeBytes { Array($0) }
        #else
            return bigEndianBytes(of: floats)
        #endif
    }

    /// ``bytes(of:)`` one float at a time, for a host whose floats are big-endian.
    private static func bigEndianBytes(of floats: [Float]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: floats.count * 4)
        bytes.withUnsafeMutableBytes { raw in
            for (position, float) in floats.enumerated() {
                raw.storeBytes(of: float.bitPattern.littleEndian, toByteOffset: position * 4, as: UInt32.self)
            }
        }
        return bytes
    }

    /// The f32 values back from ``bytes(of:)``.
    static func floats(from bytes: UnsafeRawBufferPointer) -> [Float] {
        (0..<bytes.count / 4).map { Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
    }
}

extension VectorIndexDefinition {
    /// The item's entry in this index, `nil` when it has none (no vector attribute, or no `HASH`
    /// attribute when the schema has one).
    ///
    /// - Throws: DynamoDB's `ValidationException` for a vector that is not a list of
    ///   `dimensions` numbers, and for a search-schema attribute of another type than its
    ///   definition or an empty `HASH` value.
    func entry(of item: Item, table: TableDefinition) throws(DynamoError) -> VectorEntry? {
        guard let value = item[vectorAttribute] else { return nil }
        let floats: [Float]
        switch VectorEntry.floats(of: value) {
        case .success(let values): floats = values
        case .failure(let bad) where bad.position < 0:
            throw EngineMessages.vectorNotAList(vectorAttribute, index: name)
        case .failure(let bad):
            throw EngineMessages.vectorElementType(vectorAttribute, position: bad.position, actual: bad.actual, index: name)
        }
        return try entry(floats: floats, attributes: item) { ItemSize.of(project(item, table: table)) }
    }

    /// The entry of an item whose vector is `floats`, with its search-schema attributes found in
    /// `attributes` (the item, or only those attributes of it) and its projected size from `size`.
    private func entry(floats: [Float], attributes item: Item, size: () -> Int) throws(DynamoError) -> VectorEntry? {
        if floats.count != dimensions {
            throw EngineMessages.vectorSize(vectorAttribute, expected: dimensions, actual: floats.count, index: name)
        }
        var partition: [UInt8] = []
        var filters: [[UInt8]?] = []
        var indexed = true
        for attribute in searchSchema {
            guard let found = item[attribute.name] else {
                if attribute.isHash { indexed = false } else { filters.append(nil) }
                continue
            }
            guard attribute.type.matches(found), let bytes = KeyEncoding.encode(found) else {
                throw EngineMessages.typeMismatchIndexKeyExpected(
                    attributeName: attribute.name, typeRawValue: attribute.type.rawValue, typeDescriptor: found.typeDescriptor, name: name)
            }
            if attribute.isHash {
                if bytes.isEmpty, attribute.type != .number {
                    throw EngineMessages.emptyIndexKeyValue(
                        kind: attribute.type == .string ? "string" : "binary", name: name, attributeName: attribute.name)
                }
                partition = bytes
            } else {
                filters.append(bytes)
            }
        }
        guard indexed else { return nil }
        return VectorEntry(
            partition: partition, filters: VectorEntry.encodeFilters(filters), vector: VectorEntry.bytes(of: floats),
            size: size())
    }

    /// ``entry(of:table:)`` of a stored item, read from its stored JSON (`size` its stored
    /// ``ItemSize``) without decoding the item: only the vector's numbers, the search-schema
    /// attributes and (for a projection other than `ALL`, `projected` its
    /// ``projectedNames(table:)``) the projected attributes are read, so a backfill costs what the
    /// vectors cost.
    ///
    /// - Returns: `.some(entry)` (`.some(nil)`: the item is not in the index), or `nil` when
    ///   only ``entry(of:table:)`` can say (a vector attribute that is not a list of numbers a
    ///   float holds, an item the index refuses, a member name with an escape), for the caller
    ///   to decode the item.
    func storedEntry(json: UnsafeRawBufferPointer, size: Int, projected: Set<String>?) -> VectorEntry?? {
        var reader = JSONByteReader(json)
        var vector: (floats: [Float], size: Int)?
        var attributes = Item()
        // The projected attributes other than the vector, for the projected size.
        var others = 0
        do {
            try reader.expect(UInt8(ascii: "{"))
            if !reader.consume(UInt8(ascii: "}")) {
                repeat {
                    let member = try reader.unescapedString()
                    try reader.expect(UInt8(ascii: ":"))
                    if vectorAttribute.utf8.elementsEqual(member) {
                        vector = try reader.floatList(expected: dimensions)
                    } else if let attribute = searchSchema.first(where: { $0.name.utf8.elementsEqual(member) }) {
                        let value = try reader.attributeValue()
                        attributes[attribute.name] = value
                        others += member.count + ItemSize.of(value)
                    } else if let projected, projected.contains(String(decoding: member, as: UTF8.self)) {
                        others += member.count + ItemSize.of(try reader.attributeValue())
                    } else {
                        _ = try reader.skipValue()
                    }
                } while try reader.continues(before: UInt8(ascii: "}"))
            }
        } catch {
            return nil
        }
        guard let vector else { return .some(nil) }
        let projectedSize = projected == nil ? size : others + vectorAttribute.utf8.count + vector.size
        do {
            return .some(try entry(floats: vector.floats, attributes: attributes, size: { projectedSize }))
        } catch {
            return nil
        }
    }

    /// The attributes of `item` the index projects: all of them, or the table's keys, the
    /// search-schema attributes and the vector (`KEYS_ONLY`), and the non-key attributes named
    /// (`INCLUDE`).
    func project(_ item: Item, table: TableDefinition) -> Item {
        guard let names = projectedNames(table: table) else { return item }
        var projected = Item()
        for name in names { projected[name] = item[name] }
        return projected
    }

    /// The attribute names a `KEYS_ONLY` or `INCLUDE` projection holds; `nil` for `ALL`.
    func projectedNames(table: TableDefinition) -> Set<String>? {
        guard projectionType != .all else { return nil }
        var names = Set(table.keyAttributes.map(\.name))
        names.insert(vectorAttribute)
        for attribute in searchSchema { names.insert(attribute.name) }
        for name in nonKeyAttributes ?? [] { names.insert(name) }
        return names
    }
}
