import DynamoAPI
import DynamoEngine

extension AdminRoutes {
    /// The consistency model (`serve --consistency`): what is pending, settling it, and modes
    /// per namespace or table.
    static let consistency: [AdminRoute] = [
        AdminRoute(
            "GET", "/_localdynamo/consistency",
            "The consistency model: its settings, and per namespace the table overrides, what is pending and the stale answers served"
        ) { _, environment in
            let engine = environment.engine
            // The stream records waiting are read from SQLite: off the event loop.
            return render(engine.consistencySettings, namespaces: try await environment.blocking { try engine.consistencyReport() })
        },
        AdminRoute(
            "POST", "/_localdynamo/consistency/settle",
            "Make everything pending visible now (item versions, index entries, stream and Kinesis records, statuses, due TTL deletions): {\"settled\": N, \"deleted\": N}"
        ) { _, environment in
            let engine = environment.engine
            let settled = try await environment.blocking { try engine.settleConsistency() }
            return .object(["settled": .number(String(settled.versions)), "deleted": .number(String(settled.deleted))])
        },
        AdminRoute(
            "POST", "/_localdynamo/consistency",
            "Set the mode: {\"mode\": \"exact\"|\"service\"|null, \"namespace\": N, \"table\": T} (namespace and table optional; null goes back to the server's)"
        ) { request, environment in
            let members = try request.jsonObject()
            let known: Set<String> = ["mode", "namespace", "table"]
            if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
                throw AdminError(status: 400, "Unknown member \(unknown); known: mode, namespace, table")
            }
            let mode: ConsistencyMode?
            switch members["mode"] {
            case .string(let text)?:
                guard let parsed = ConsistencyMode(rawValue: text) else {
                    throw AdminError(status: 400, "mode must be exact, service or null")
                }
                mode = parsed
            case .null?: mode = nil
            default: throw AdminError(status: 400, "mode must be exact, service or null")
            }
            let namespace = try optionalString(members["namespace"], name: "namespace")
            let table = try optionalString(members["table"], name: "table")
            if mode == nil, namespace == nil, table == nil {
                throw AdminError(status: 400, "mode null needs a namespace or a table to go back from")
            }
            let engine = environment.engine
            engine.setConsistency(mode, namespace: namespace, table: table)
            return render(engine.consistencySettings, namespaces: try await environment.blocking { try engine.consistencyReport() })
        },
    ]

    static func render(_ settings: ConsistencySettings, namespaces: [NamespaceConsistency]) -> JSONValue {
        var answer = render(settings)
        answer["namespaces"] = .array(
            namespaces.map { namespace in
                .object([
                    "namespace": .string(namespace.namespace),
                    "mode": .string(namespace.settings.mode.rawValue),
                    "tables": .object(namespace.tableModes.mapValues { .string($0.rawValue) }),
                    "staleAnswers": .number(String(namespace.staleAnswers)),
                    "heldKinesisRecords": .number(String(namespace.heldKinesisRecords)),
                    "pending": .array(
                        namespace.pending.map { pending in
                            var members: [String: JSONValue] = [
                                "table": .string(pending.table), "items": .number(String(pending.items)),
                                "indexEntries": .number(String(pending.indexEntries)),
                                "streamRecords": .number(String(pending.streamRecords)),
                            ]
                            if let settlesAt = pending.settlesAt { members["settlesAt"] = .number(JSONNumberText.of(settlesAt)) }
                            return .object(members)
                        }),
                ])
            })
        return .object(answer)
    }

    static func render(_ settings: ConsistencySettings) -> [String: JSONValue] {
        [
            "mode": .string(settings.mode.rawValue), "seed": .number(String(settings.seed)),
            "staleProbability": .number(String(settings.staleProbability)),
            "windowSeconds": .number(String(settings.window)), "ttlDelaySeconds": .number(String(settings.ttlDelay)),
            "statusDelaySeconds": .number(String(settings.statusDelay)),
        ]
    }
}
