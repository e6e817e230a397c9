import DynamoAPI
import DynamoEngine

extension AdminRoutes {
    /// Snapshots for fast test isolation: capture a seeded state once, restore it before each
    /// test in milliseconds instead of recreating tables.
    static let snapshots: [AdminRoute] = [
        AdminRoute(
            "POST", "/_localdynamo/snapshots",
            "Take a snapshot: {\"name\": \"clean\"} of every namespace, or add \"namespace\": \"us-east-1\""
        ) { request, environment in
            let members = try request.jsonObject()
            guard let name = members["name"]?.stringValue, isValidName(name) else {
                throw AdminError(status: 400, "name must be 1-255 characters of letters, digits, '-', '_' and '.'")
            }
            let namespace = try optionalString(members["namespace"], name: "namespace")
            let entry = try await environment.blocking {
                try snapshotErrors { try environment.engine.takeSnapshot(named: name, namespace: namespace) }
            }
            return render(entry)
        },
        AdminRoute("GET", "/_localdynamo/snapshots", "Every snapshot: name, time and tables per namespace") { _, environment in
            .object(["snapshots": .array(environment.engine.snapshots.all.map(render))])
        },
        AdminRoute(
            "POST", "/_localdynamo/snapshots/{name}/restore",
            "Restore a snapshot (a snapshot of every namespace also empties namespaces opened since)"
        ) { request, environment in
            let name = request.parameters["name"] ?? ""
            let restored = try await environment.blocking {
                try snapshotErrors { try environment.engine.restoreSnapshot(named: name) }
            }
            return .object([
                "name": .string(name),
                "restored": .object(restored.mapValues { .array($0.map(JSONValue.string)) }),
            ])
        },
        AdminRoute("DELETE", "/_localdynamo/snapshots/{name}", "Forget a snapshot") { request, environment in
            let name = request.parameters["name"] ?? ""
            guard environment.engine.deleteSnapshot(named: name) else {
                throw AdminError(status: 404, SnapshotError.unknownSnapshot(name).description)
            }
            return .object(["deleted": .string(name)])
        },
    ]

    static func render(_ entry: SnapshotRegistry.Entry) -> JSONValue {
        .object([
            "name": .string(entry.name),
            "takenAt": .number(JSONNumberText.of(entry.takenAt)),
            "namespaces": .object(entry.databases.mapValues { .array($0.tables.map(JSONValue.string)) }),
        ])
    }

    static func isValidName(_ name: String) -> Bool {
        (1...255).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
    }

    static func optionalString(_ value: JSONValue?, name: String) throws(AdminError) -> String? {
        guard let value, value != .null else { return nil }
        guard let text = value.stringValue else { throw AdminError(status: 400, "\(name) must be a string") }
        return text
    }

    /// Runs `body`, answering an unknown snapshot or namespace with 404.
    static func snapshotErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SnapshotError {
            throw AdminError(status: 404, error.description)
        }
    }
}
