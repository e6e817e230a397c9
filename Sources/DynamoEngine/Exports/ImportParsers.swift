import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns one source object of an import into items, one entry per line (or Ion value): an
/// item, or why that line is not one.
enum ImportParsers {
    typealias Parsed = (line: Int, result: Result<Item, ImportLineError>)

    struct ImportLineError: Error, CustomStringConvertible {
        var description: String
    }

    /// DynamoDB JSON: one `{"Item": {...}}` object a line; blank lines are skipped.
    static func dynamoJSON(_ bytes: [UInt8]) -> [Parsed] {
        var parsed: [Parsed] = []
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 > 32 }) else { continue }
            do {
                guard case .object(let object) = try JSONValue(parsing: line), let item = object["Item"] else {
                    throw ImportLineError(description: "A line must be a JSON object with an Item member")
                }
                parsed.append((number + 1, .success(try AttributeValue.decodeItem(item))))
            } catch let error as ImportLineError {
                parsed.append((number + 1, .failure(error)))
            } catch {
                parsed.append((number + 1, .failure(ImportLineError(description: "\(error)"))))
            }
        }
        return parsed
    }

    /// Amazon Ion: one `{Item: {...}}` struct per top-level value. A value that cannot be read
    /// ends the object (its rest is skipped, as DynamoDB does).
    static func ion(_ bytes: [UInt8]) -> [Parsed] {
        var reader = IonReader(bytes)
        var parsed: [Parsed] = []
        while true {
            do {
                guard let next = try reader.next() else { return parsed }
                guard case .m(let top) = next.value, case .m(let item)? = top["Item"] else {
                    parsed.append((next.line, .failure(ImportLineError(description: "A value must be a struct with an Item field"))))
                    continue
                }
                parsed.append((next.line, .success(item)))
            } catch {
                parsed.append((0, .failure(ImportLineError(description: "\(error)"))))
                return parsed
            }
        }
    }

    /// CSV: a header line (unless `header` is given), then one item a line; values of the
    /// key attributes take their declared type (N, B as base64), everything else is a string;
    /// empty fields are left out.
    static func csv(
        _ bytes: [UInt8], delimiter: UInt8, header: [String]?,
        types: [String: KeyScalarType]
    ) -> [Parsed] {
        var rows = csvRows(bytes, delimiter: delimiter)
        var parsed: [Parsed] = []
        let names: [String]
        if let header {
            names = header
        } else {
            guard !rows.isEmpty else { return [] }
            names = rows.removeFirst().fields
        }
        for row in rows {
            guard !(row.fields.count == 1 && row.fields[0].isEmpty) else { continue }
            guard row.fields.count == names.count else {
                parsed.append(
                    (
                        row.line,
                        .failure(
                            ImportLineError(
                                description: "The line has \(row.fields.count) fields, the header \(names.count)"))
                    ))
                continue
            }
            var item: Item = [:]
            var failure: ImportLineError?
            for (name, field) in zip(names, row.fields) where !field.isEmpty {
                switch types[name] {
                case .number?:
                    guard let number = try? DynamoNumber(parsing: field) else {
                        failure = ImportLineError(description: "\(name) is not a number: \(field)")
                        continue
                    }
                    item[name] = .n(number)
                case .binary?:
                    guard let data = Data(base64Encoded: field) else {
                        failure = ImportLineError(description: "\(name) is not base64: \(field)")
                        continue
                    }
                    item[name] = .b(Array(data))
                default:
                    item[name] = .s(field)
                }
            }
            parsed.append((row.line, failure.map { .failure($0) } ?? .success(item)))
        }
        return parsed
    }

    /// RFC 4180 records: quoted fields may hold the delimiter, quotes (doubled) and newlines.
    static func csvRows(_ bytes: [UInt8], delimiter: UInt8) -> [(line: Int, fields: [String])] {
        var rows: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var line = 1
        var rowLine = 1
        var index = 0
        func endField() { fields.append(String(decoding: field, as: UTF8.self)); field = [] }
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == 10 { line += 1 }
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") && field.isEmpty {
                quoted = true
            } else if byte == delimiter {
                endField()
            } else if byte == 10 {
                if field.last == 13 { field.removeLast() }
                endField()
                rows.append((rowLine, fields))
                fields = []
                line += 1
                rowLine = line
            } else {
                field.append(byte)
            }
            index += 1
        }
        if !field.isEmpty || !fields.isEmpty {
            if field.last == 13 { field.removeLast() }
            endField()
            rows.append((rowLine, fields))
        }
        return rows
    }
}
