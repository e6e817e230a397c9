import DynamoAPI

/// One input record of a bulk put: the item and, where the record carries one, its condition
/// (`ConditionExpression` with its `ExpressionAttributeNames` and `ExpressionAttributeValues`,
/// as PutItem takes them).
struct BulkRecord: Sendable {
    var item: Item
    var conditionExpression: String?
    var names: [String: String]?
    var values: [String: AttributeValue]?
}

/// Reads the records of one input object: DynamoDB JSON (one JSON object a line, blank lines
/// skipped) or Amazon Ion (one struct a top-level value). Each entry is a record or why its line
/// is not one, with its 1-based line number and the bytes of the line (for the ERROR record).
enum BulkRecordParser {
    struct Entry: Sendable {
        var line: Int
        var result: Result<BulkRecord, ImportParsers.ImportLineError>
        /// The input line's bytes (DynamoDB JSON); Ion values have none.
        var raw: [UInt8]
        /// Bytes of the object this entry accounts for (the line and its newline).
        var bytes: Int
    }

    static func parse(_ content: [UInt8], format: BulkOperationInputFormat) -> [Entry] {
        format == .ion ? ion(content) : dynamoJSON(content)
    }

    /// DynamoDB JSON lines: `{"Item": {...}, "ConditionExpression": "...", ...}`.
    static func dynamoJSON(_ content: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        let lines = content.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (number, line) in lines.enumerated() {
            let bytes = line.count + (number < lines.count - 1 ? 1 : 0)
            guard line.contains(where: { $0 > 32 }) else {
                if let last = entries.indices.last { entries[last].bytes += bytes }
                continue
            }
            entries.append(Entry(line: number + 1, result: record(fromJSON: Array(line)), raw: Array(line), bytes: bytes))
        }
        return entries
    }

    private static func record(fromJSON line: [UInt8]) -> Result<BulkRecord, ImportParsers.ImportLineError> {
        do {
            guard case .object(let object) = try JSONValue(parsing: line), let item = object["Item"] else {
                return .failure(.init(description: BulkOperationWords.notARecord))
            }
            var record = BulkRecord(item: try AttributeValue.decodeItem(item))
            if let condition = object["ConditionExpression"] {
                guard case .string(let text) = condition else {
                    return .failure(.init(description: BulkOperationWords.memberType("ConditionExpression", "a string")))
                }
                record.conditionExpression = text
            }
            if let names = object["ExpressionAttributeNames"] {
                guard case .object(let members) = names else {
                    return .failure(.init(description: BulkOperationWords.memberType("ExpressionAttributeNames", "a map of strings")))
                }
                var decoded: [String: String] = [:]
                for (key, value) in members {
                    guard case .string(let name) = value else {
                        return .failure(.init(description: BulkOperationWords.memberType("ExpressionAttributeNames", "a map of strings")))
                    }
                    decoded[key] = name
                }
                record.names = decoded
            }
            if let values = object["ExpressionAttributeValues"] {
                record.values = try AttributeValue.decodeItem(values)
            }
            return .success(record)
        } catch {
            return .failure(.init(description: "\(error)"))
        }
    }

    /// Amazon Ion: `{Item: {...}, ConditionExpression: "...", ...}` per top-level value. A value
    /// that cannot be read ends the object, as for ImportTable.
    static func ion(_ content: [UInt8]) -> [Entry] {
        var reader = IonReader(content)
        var entries: [Entry] = []
        while true {
            do {
                guard let next = try reader.next() else { break }
                guard case .m(let top) = next.value, case .m(let item)? = top["Item"] else {
                    entries.append(Entry(line: next.line, result: .failure(.init(description: BulkOperationWords.notAnIonRecord)), raw: [], bytes: 0))
                    continue
                }
                var record = BulkRecord(item: item)
                var failure: String?
                switch top["ConditionExpression"] {
                case nil: break
                case .s(let text)?: record.conditionExpression = text
                default: failure = BulkOperationWords.memberType("ConditionExpression", "a string")
                }
                switch top["ExpressionAttributeNames"] {
                case nil: break
                case .m(let members)?:
                    var names: [String: String] = [:]
                    for (key, value) in members {
                        guard case .s(let name) = value else {
                            failure = BulkOperationWords.memberType("ExpressionAttributeNames", "a struct of strings")
                            break
                        }
                        names[key] = name
                    }
                    record.names = names
                default: failure = BulkOperationWords.memberType("ExpressionAttributeNames", "a struct of strings")
                }
                switch top["ExpressionAttributeValues"] {
                case nil: break
                case .m(let values)?: record.values = values
                default: failure = BulkOperationWords.memberType("ExpressionAttributeValues", "a struct")
                }
                entries.append(
                    Entry(line: next.line, result: failure.map { .failure(.init(description: $0)) } ?? .success(record), raw: [], bytes: 0))
            } catch {
                entries.append(Entry(line: 0, result: .failure(.init(description: "\(error)")), raw: [], bytes: 0))
                break
            }
        }
        // Ion values are not lines: the object's bytes are spread over its values.
        if !entries.isEmpty {
            let share = content.count / entries.count
            for index in entries.indices { entries[index].bytes = share }
            entries[entries.count - 1].bytes += content.count - share * entries.count
        }
        return entries
    }
}

/// The output records a bulk put writes under its output prefix, as JSON lines.
enum BulkOutputRecord {
    /// An `ERROR` record: the object and line, the error's type and message, and the record's
    /// text when it was a line of DynamoDB JSON.
    static func error(object: String, line: Int, code: String, message: String, raw: [UInt8]) -> [UInt8] {
        var members: [String: JSONValue] = [
            "OutputType": .string("ERROR"), "S3Object": .string(object), "Line": .number(String(line)),
            "ErrorCode": .string(code), "ErrorMessage": .string(message),
        ]
        if !raw.isEmpty { members["Record"] = .string(String(decoding: raw, as: UTF8.self)) }
        return Array(JSONValue.object(members).serialized.utf8)
    }

    /// A `CONDITION_CHECK_FAILURE` record: the attempted item and the existing one, if any.
    static func conditionFailure(object: String, line: Int, item: Item, existing: Item?) -> [UInt8] {
        var members: [String: JSONValue] = [
            "OutputType": .string("CONDITION_CHECK_FAILURE"), "S3Object": .string(object), "Line": .number(String(line)),
            "Item": .object(item.mapValues(\.json)),
        ]
        if let existing { members["ExistingItem"] = .object(existing.mapValues(\.json)) }
        return Array(JSONValue.object(members).serialized.utf8)
    }
}
