import DynamoAPI
import DynamoClient
import Foundation

/// `serve --seed DIR` (and `reset --seed DIR`): creates the tables a directory describes and
/// loads their items.
///
/// `NAME.table.json` is a CreateTable input as `aws dynamodb create-table --cli-input-json`
/// takes it (`TableName` may be left out: it is `NAME`), `NAME.items.jsonl` one DynamoDB JSON
/// item per line, `NAME.items.json` a plain JSON array of items. Every file is read and checked
/// before anything is created; a table that already exists is left as it is (its items files
/// are not loaded again), so a restart over the same data directory changes nothing.
struct Seeder {
    let directory: String
    let report: (String) -> Void

    /// One table to create and the items to load into it.
    struct Plan {
        var name: String
        var input: CreateTableInput
        var entries: [ItemEntry]
    }

    /// Reads and checks every file of the directory.
    /// - Throws: ``ItemFileError`` naming the file (and line) of the first problem.
    func plan() throws(ItemFileError) -> [Plan] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted() } catch {
            throw ItemFileError("\(directory): cannot list the seed directory")
        }
        var plans: [Plan] = []
        for file in names where file.hasSuffix(".table.json") {
            let name = String(file.dropLast(".table.json".count))
            let path = "\(directory)/\(file)"
            let input = try tableInput(path, name: name)
            var entries: [ItemEntry] = []
            for format in [ItemFileFormat.jsonl, .json] {
                let items = "\(directory)/\(name).items.\(format.rawValue)"
                guard FileManager.default.fileExists(atPath: items) else { continue }
                entries += try ItemFile.read(items, format: format)
            }
            if let bad = entries.first(where: { if case .failure = $0.item { true } else { false } }),
                case .failure(let error) = bad.item
            {
                throw error
            }
            plans.append(Plan(name: input.tableName, input: input, entries: entries))
        }
        let known = Set(names.filter { $0.hasSuffix(".table.json") }.map { String($0.dropLast(".table.json".count)) })
        for file in names where file.hasSuffix(".items.jsonl") || file.hasSuffix(".items.json") {
            let name = String(file[..<file.range(of: ".items.")!.lowerBound])
            if !known.contains(name) {
                throw ItemFileError("\(directory)/\(file): there is no \(name).table.json to create its table from")
            }
        }
        return plans
    }

    private func tableInput(_ path: String, name: String) throws(ItemFileError) -> CreateTableInput {
        let bytes = try ItemFile.contents(path)
        var json: JSONValue
        do { json = try JSONValue(parsing: bytes) } catch {
            let line = bytes.prefix(error.offset).count(where: { $0 == 0x0A }) + 1
            throw ItemFileError("\(path):\(line): not JSON (\(error.reason))")
        }
        guard case .object(var members) = json else { throw ItemFileError("\(path):1: a CreateTable input is a JSON object") }
        switch members["TableName"] {
        case nil: members["TableName"] = .string(name)
        case .string(let given) where given != name:
            throw ItemFileError("\(path): TableName is '\(given)' but the file name says '\(name)'")
        default: break
        }
        json = .object(members)
        do { return try CreateTableInput.decodeRequest(json) } catch {
            throw ItemFileError("\(path): \(error.code.rawValue): \(error.message ?? "")")
        }
    }

    /// Creates the planned tables that do not exist yet and loads their items.
    /// - Returns: one line per table saying what happened.
    func run(_ plans: [Plan], client: DynamoClient) async throws -> [String] {
        var lines: [String] = []
        for plan in plans {
            do {
                _ = try await client.send(plan.input)
            } catch let error as DynamoError where error.code == .resourceInUse {
                lines.append("seed: \(plan.name) exists, left as it is")
                continue
            } catch let error as DynamoError {
                throw ItemFileError("\(directory)/\(plan.name).table.json: \(error.code.rawValue): \(error.message ?? "")")
            }
            let loader = ItemLoader(client: client, table: plan.name, onError: .fail, report: report)
            let outcome = try await loader.load(plan.entries, progress: nil)
            lines.append("seed: created \(plan.name) with \(outcome.written) items")
        }
        return lines
    }
}
