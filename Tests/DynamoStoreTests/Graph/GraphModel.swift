import DynamoAPI
import DynamoClient
import DynamoStore
import Testing

/// The graph the concurrency property test edits: places have visits (one-to-many, both sides
/// nullify) and labels (many-to-many). Places and visits carry a version attribute, labels do
/// not.
enum GraphModel {
    static let place = EntityDescription(
        "Place", tableName: "Places", hashKey: "id", versionAttribute: "version",
        attributes: [.init("id", .string), .init("name", .string), .init("version", .int64)],
        relationships: [
            .init("visits", to: "Visit", inverse: "place", toMany: true),
            .init("labels", to: "Label", inverse: "places", toMany: true),
        ])
    static let visit = EntityDescription(
        "Visit", tableName: "Visits", hashKey: "id", versionAttribute: "version",
        attributes: [.init("id", .string), .init("note", .string, isOptional: true), .init("version", .int64)],
        relationships: [.init("place", to: "Place", inverse: "visits")])
    static let label = EntityDescription(
        "Label", tableName: "Labels", hashKey: "id",
        attributes: [.init("id", .string)],
        relationships: [.init("places", to: "Place", inverse: "labels", toMany: true)])

    static func model() throws -> StoreModel { try StoreModel([place, visit, label]) }

    static func id(_ entity: String, _ key: String) -> ObjectID {
        ObjectID(entityName: entity, key: ["id": .s(key)])
    }
}

extension StoreFixture {
    /// Saves, in a fresh context, places (each named after its id), labels, and visits at the
    /// place given for each (`[visit: place]`).
    func seedGraph(places: [String], labels: [String] = [], visits: [String: String]) async throws {
        let setup = context()
        var placeObjects: [String: ManagedObject] = [:]
        for id in places {
            let place = ManagedObject(entity: GraphModel.place, context: setup)
            place["id"] = id
            place["name"] = id
            placeObjects[id] = place
        }
        for id in labels {
            let label = ManagedObject(entity: GraphModel.label, context: setup)
            label["id"] = id
        }
        for (id, place) in visits {
            let visit = ManagedObject(entity: GraphModel.visit, context: setup)
            visit["id"] = id
            visit["place"] = placeObjects[place]
        }
        try await setup.save()
    }

    /// The object of the graph with this key, loaded (a failed expectation when it is gone).
    func load(_ context: ObjectContext, _ entity: String, _ key: String) async throws -> ManagedObject {
        try #require(try await context.existingObject(with: GraphModel.id(entity, key)))
    }
}

/// What a checker finds wrong in the stored graph, one line per problem.
struct GraphChecker {
    let client: DynamoClient

    private func scan(_ table: String) async throws -> [String: Item] {
        var rows: [String: Item] = [:]
        var start: Item?
        repeat {
            let page = try await client.scan(ScanInput(tableName: table, exclusiveStartKey: start, consistentRead: true))
            for item in page.items ?? [] { if case .s(let id)? = item["id"] { rows[id] = item } }
            start = page.lastEvaluatedKey
        } while start != nil
        return rows
    }

    private static func keys(_ value: AttributeValue?) -> Set<String> {
        switch value {
        case .ss(let values)?: Set(values)
        case .s(let value)?: [value]
        default: []
        }
    }

    /// Every inverse agrees and no reference dangles; returns the problems and the stored ids.
    func check() async throws -> (problems: [String], places: Set<String>, visits: Set<String>) {
        let places = try await scan("Places"), visits = try await scan("Visits"), labels = try await scan("Labels")
        var problems: [String] = []
        for (id, place) in places {
            for visit in Self.keys(place["visits"]) {
                guard let row = visits[visit] else { problems.append("place \(id) lists missing visit \(visit)"); continue }
                if Self.keys(row["place"]) != [id] { problems.append("place \(id) lists visit \(visit), whose place is \(Self.keys(row["place"]))") }
            }
            for label in Self.keys(place["labels"]) {
                guard let row = labels[label] else { problems.append("place \(id) lists missing label \(label)"); continue }
                if !Self.keys(row["places"]).contains(id) { problems.append("place \(id) lists label \(label), which does not list it") }
            }
        }
        for (id, visit) in visits {
            for place in Self.keys(visit["place"]) {
                guard let row = places[place] else { problems.append("visit \(id) points at missing place \(place)"); continue }
                if !Self.keys(row["visits"]).contains(id) { problems.append("visit \(id) points at place \(place), which does not list it") }
            }
        }
        for (id, label) in labels {
            for place in Self.keys(label["places"]) {
                guard let row = places[place] else { problems.append("label \(id) lists missing place \(place)"); continue }
                if !Self.keys(row["labels"]).contains(id) { problems.append("label \(id) lists place \(place), which does not list it") }
            }
        }
        return (problems.sorted(), Set(places.keys), Set(visits.keys))
    }
}
