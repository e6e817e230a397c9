import DynamoAPI
import DynamoEngine
import Foundation

/// The file formats `import`, `export` and `serve --seed` read and write.
enum ItemFileFormat: String, CaseIterable, Sendable {
    /// One DynamoDB JSON item per line (`{"pk": {"S": "a"}}`); export lines (`{"Item": {...}}`)
    /// are read too.
    case jsonl
    /// A plain JSON array of items (`[{"pk": "a", "n": 1}]`).
    case json
    /// DynamoDB's export layout (`AWSDynamoDB/<id>/manifest-files.json`, `data/*.json.gz`).
    case s3

    /// The format a file name implies (`.jsonl`, `.json`, or a directory for `s3`).
    static func guess(path: String) -> ItemFileFormat? {
        if path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") { return .jsonl }
        if path.hasSuffix(".json") { return .json }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return .s3 }
        return nil
    }
}

/// One item read from a file, or why the entry there is not one.
struct ItemEntry: Sendable {
    /// Where it is: `file:line`.
    var location: String
    var item: Result<[String: AttributeValue], ItemFileError>
}

/// A file or entry that cannot be read, with where.
struct ItemFileError: Error, CustomStringConvertible, Sendable {
    var description: String

    init(_ description: String) { self.description = description }
}

/// Reads items from files in the ``ItemFileFormat``s.
enum ItemFile {
    /// Every entry of `path`, in file order.
    /// - Throws: ``ItemFileError`` when the file (not one entry) cannot be read.
    static func read(_ path: String, format: ItemFileFormat) throws(ItemFileError) -> [ItemEntry] {
        switch format {
        case .jsonl: return jsonLines(try contents(path), name: path)
        case .json: return try plainArray(try contents(path), name: path)
        case .s3: return try exportDirectory(path)
        }
    }

    static func contents(_ path: String) throws(ItemFileError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ItemFileError("\(path): cannot read the file")
        }
        return Array(data)
    }

    /// DynamoDB JSON, one item per line; blank lines are skipped.
    static func jsonLines(_ bytes: [UInt8], name: String) -> [ItemEntry] {
        var entries: [ItemEntry] = []
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            let location = "\(name):\(lineNumber)"
            entries.append(
                ItemEntry(
                    location: location,
                    item: Result { () throws(ItemFileError) in
                        let json: JSONValue
                        do { json = try JSONValue(parsing: line) } catch {
                            throw ItemFileError("\(location): not JSON (\(error))")
                        }
                        return try dynamoItem(json, location: location)
                    }))
        }
        return entries
    }

    /// A DynamoDB JSON item, unwrapping an export line's `{"Item": {...}}`.
    static func dynamoItem(_ json: JSONValue, location: String) throws(ItemFileError) -> [String: AttributeValue] {
        if case .object(let members) = json, members.count == 1, let inner = members["Item"],
            let item = try? AttributeValue.decodeItem(inner)
        {
            return item
        }
        guard case .object = json else { throw ItemFileError("\(location): an item must be a JSON object, not \(json.typeName)") }
        do { return try AttributeValue.decodeItem(json) } catch {
            throw ItemFileError("\(location): not a DynamoDB JSON item (\(error.message ?? "\(error.code)")); plain JSON goes in a .json array")
        }
    }

    /// A plain JSON array of items; each entry's location is the line its element starts on.
    static func plainArray(_ bytes: [UInt8], name: String) throws(ItemFileError) -> [ItemEntry] {
        let elements: [(line: Int, bytes: ArraySlice<UInt8>)]
        do { elements = try JSONArraySplitter.elements(bytes) } catch {
            throw ItemFileError("\(name):\(error.line): \(error.message)")
        }
        return elements.map { element in
            let location = "\(name):\(element.line)"
            return ItemEntry(
                location: location,
                item: Result { () throws(ItemFileError) in
                    do {
                        return try PlainJSON.item(try JSONValue(parsing: element.bytes))
                    } catch let error as PlainJSON.Failure {
                        throw ItemFileError("\(location): \(error.description)")
                    } catch {
                        throw ItemFileError("\(location): not JSON (\(error))")
                    }
                })
        }
    }

    /// A DynamoDB export: `path` is its `AWSDynamoDB/<export id>` directory (or the directory
    /// holding exactly one such export); its data files are read in manifest order.
    static func exportDirectory(_ path: String) throws(ItemFileError) -> [ItemEntry] {
        let root = try exportRoot(path)
        let manifest = "\(root)/manifest-files.json"
        var entries: [ItemEntry] = []
        for (index, line) in try contents(manifest).split(separator: UInt8(ascii: "\n")).enumerated() {
            guard let json = try? JSONValue(parsing: line), case .string(let key)? = json["dataFileS3Key"] else {
                throw ItemFileError("\(manifest):\(index + 1): a manifest line needs dataFileS3Key")
            }
            let file = "\(root)/data/\(key.split(separator: "/").last ?? "")"
            guard file.hasSuffix(".json.gz") else {
                throw ItemFileError("\(file): only DYNAMODB_JSON exports are read (ION is not)")
            }
            let bytes: [UInt8]
            do { bytes = try Gzip.decompress(try contents(file)) } catch let error as ItemFileError { throw error } catch {
                throw ItemFileError("\(file): not gzip (\(error))")
            }
            entries += jsonLines(bytes, name: file)
        }
        return entries
    }

    /// The export directory that holds `manifest-files.json`.
    private static func exportRoot(_ path: String) throws(ItemFileError) -> String {
        let files = FileManager.default
        if files.fileExists(atPath: "\(path)/manifest-files.json") { return path }
        for base in [path, "\(path)/AWSDynamoDB"] {
            let found = ((try? files.contentsOfDirectory(atPath: base)) ?? [])
                .filter { files.fileExists(atPath: "\(base)/\($0)/manifest-files.json") }
            if found.count == 1 { return "\(base)/\(found[0])" }
            if found.count > 1 { throw ItemFileError("\(path): holds \(found.count) exports; name one of \(found.sorted())") }
        }
        throw ItemFileError("\(path): no DynamoDB export here (no manifest-files.json)")
    }
}
