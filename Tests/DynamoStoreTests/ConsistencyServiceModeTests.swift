import DynamoAPI
import DynamoClient
import DynamoServer
import DynamoStore
import DynamoTestSupport
import Testing

/// DynamoStore against a server that lags as DynamoDB does (`serve --consistency service`):
/// what a user sees. A fetch planned onto a global index is eventually consistent, so it misses
/// a save made a moment before until the index catches up; the same fetch with
/// `consistentRead` (never planned onto a global index) and an object's `refresh` (a
/// strongly consistent read) see every change at once.
@Suite struct ConsistencyServiceModeTests {
    /// Every write lags by up to an hour of the server clock: the real time a test takes never
    /// ends a lag, only `settle` or a move of the clock do. Statuses are not held, so creating
    /// the tables does not wait.
    static func configuration() -> LocalDynamoServer.Configuration {
        var configuration = LocalDynamoServer.Configuration()
        configuration.consistency = .init(mode: .service, seed: 2, staleProbability: 1, window: 3600, statusDelay: 0)
        return configuration
    }

    static func withServiceStore(_ body: (FetchFixture, TestEndpoint) async throws -> Void) async throws {
        try await withTestServer(configuration: configuration()) { endpoint in
            let transport = RecordingTransport(endpoint)
            let client = try makeTestClient(endpoint, transport: transport)
            let store = DynamoStore(model: try FetchModel.model(), client: client)
            try await store.createTables(pollInterval: .milliseconds(10))
            try await body(FetchFixture(store: store, client: client, transport: transport), endpoint)
        }
    }

    @Test func aFetchThroughAGlobalIndexMissesAFreshSaveUntilTheIndexCatchesUp() async throws {
        try await Self.withServiceStore { fixture, endpoint in
            let writer = ObjectContext(store: fixture.store)
            let visit = ManagedObject(entity: try #require(fixture.model.entity(named: "Visit")), context: writer)
            visit["user"] = "u0"
            visit["at"] = Int64(1)
            visit["city"] = "Oslo"
            visit["score"] = 4.0
            try await writer.save()

            let byCity = try fixture.request("Visit", "city == 'Oslo' AND score >= 3")
            #expect(byCity.explain().indexName == "byCity")
            #expect(try await ObjectContext(store: fixture.store).fetch(byCity).isEmpty)
            #expect(fixture.takeCounts() == ["Query": 1])

            var consistent = byCity
            consistent.consistentRead = true
            #expect(try await ObjectContext(store: fixture.store).fetch(consistent).map(\.objectID) == [visit.objectID])
            #expect(fixture.takeCounts() == ["Scan": 1])

            try endpoint.server.advanceClock(by: 3600)
            #expect(try await ObjectContext(store: fixture.store).fetch(byCity).map(\.objectID) == [visit.objectID])
        }
    }

    @Test func refreshSeesARemoteChangeThatAnEventuallyConsistentReadDoesNot() async throws {
        try await Self.withServiceStore { fixture, endpoint in
            try await fixture.put([visitItem("u0", 1, city: "Oslo", note: "first")], into: "Visits")
            try await endpoint.server.settleConsistency()
            let reader = ObjectContext(store: fixture.store)
            let visit = try #require(try await reader.fetch(try fixture.request("Visit", "user == 'u0'")).first)
            #expect(visit["note"] as? String == "first")

            // Another writer changes the row.
            try await fixture.put([visitItem("u0", 1, city: "Oslo", note: "second")], into: "Visits")
            let key: Item = ["user": .s("u0"), "at": .n(DynamoNumber(1))]
            let eventual = try await fixture.client.getItem(GetItemInput(tableName: "Visits", key: key))
            #expect(eventual.item?["note"] == .s("first"))

            try await reader.refresh(visit, mergeChanges: false)
            #expect(visit["note"] as? String == "second")
        }
    }
}
