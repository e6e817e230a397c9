import DynamoAPI
import DynamoStore
import Testing

@Suite struct PlannerTests {
    /// 3 users × 10 visits; cities and scores vary, every third visit has a note.
    static let visits: [Item] = (0..<3).flatMap { u in
        (0..<10).map { at in
            visitItem(
                "u\(u)", at, city: ["Oslo", "Bergen", "Rome"][(u + at) % 3], score: Double(at % 5),
                note: at % 3 == 0 ? "n\(at % 2)" : nil, place: "p\(at % 4)")
        }
    }

    private func ids(_ objects: [ManagedObject]) -> [String] { ids(objects.map(\.objectID)) }

    private func ids(_ objectIDs: [ObjectID]) -> [String] {
        objectIDs.map { objectID in
            let key = objectID.key
            if case .s(let user)? = key["user"], case .n(let at)? = key["at"] { return "\(user)/\(at)" }
            if case .s(let id)? = key["id"] { return id }
            return "?"
        }
    }

    @Test func fullKeyEqualityIsOneGetItem() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            let request = try fixture.request("Visit", "user == %@ AND at == %@ AND city != nil", "u1", 4)
            let plan = request.explain()
            #expect(plan.operation == .getItem && plan.keyCount == 1)
            #expect(plan.memoryFilter == "attribute_exists(city)")
            let objects = try await ObjectContext(store: fixture.store).fetch(request)
            #expect(ids(objects) == ["u1/4"])
            #expect(fixture.takeCounts() == ["GetItem": 1])
        }
    }

    @Test func hashKeyInASetIsBatchGetItemInChunksOf100() async throws {
        try await withFetchStore { fixture in
            let places = (0..<150).map { ["id": AttributeValue.s("p\($0)"), "name": .s("Place \($0)")] }
            try await fixture.put(places, into: "Places")
            let wanted = (0..<150).map { "p\($0)" } + ["missing"]
            let request = try fixture.request("Place", "id IN %@", wanted, sortBy: [.ascending("name")])
            let plan = request.explain()
            #expect(plan.operation == .batchGetItem && plan.keyCount == 151 && plan.sortsInMemory)
            let objects = try await ObjectContext(store: fixture.store).fetch(request)
            #expect(objects.count == 150)
            #expect(objects.map { $0["name"] as? String } == (0..<150).map { "Place \($0)" }.sorted())
            #expect(fixture.takeCounts() == ["BatchGetItem": 2])
            let or = try fixture.request("Place", "id == 'p1' OR id == 'p7' OR id == 'p1'")
            #expect(or.explain().operation == .batchGetItem && or.explain().keyCount == 2)
            #expect(Set(ids(try await ObjectContext(store: fixture.store).fetch(or))) == ["p1", "p7"])
            #expect(fixture.takeCounts() == ["BatchGetItem": 1])
        }
    }

    @Test func hashEqualityWithRangeConditionIsAQueryInKeyOrder() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            let request = try fixture.request(
                "Visit", "user == 'u2' AND at BETWEEN {3, 7} AND city == 'Oslo'",
                sortBy: [.descending("at")])
            let plan = request.explain()
            #expect(plan.operation == .query && plan.indexName == nil)
            #expect(plan.keyCondition == "#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2")
            #expect(plan.filter == "#n2 = :v3")
            #expect(plan.expressionAttributeNames == ["#n0": "user", "#n1": "at", "#n2": "city"])
            #expect(plan.scanIndexForward == false && !plan.sortsInMemory && plan.memoryFilter == nil)
            let objects = try await ObjectContext(store: fixture.store).fetch(request)
            // u2 is in Oslo when (2 + at) % 3 == 0: at 1, 4, 7.
            #expect(ids(objects) == ["u2/7", "u2/4"])
            #expect(fixture.takeCounts() == ["Query": 1])
        }
    }

    @Test func keyConditionsThatAreNotKeyConditionsAreEvaluatedInMemory() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            let request = try fixture.request("Visit", "user == 'u0' AND (at < 2 OR at > 8)", sortBy: [.ascending("city")])
            let plan = request.explain()
            #expect(plan.operation == .query && plan.keyCondition == "#n0 = :v0" && plan.filter == nil)
            #expect(plan.memoryFilter == "at < {\"N\":\"2\"} OR at > {\"N\":\"8\"}")
            #expect(plan.sortsInMemory && plan.scanIndexForward == nil)
            let objects = try await ObjectContext(store: fixture.store).fetch(request)
            #expect(ids(objects) == ["u0/1", "u0/0", "u0/9"]) // Bergen, then Oslo in query order
            #expect(fixture.takeCounts() == ["Query": 1])
        }
    }

    @Test func constrainedGlobalIndexIsQueried() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            let request = try fixture.request("Visit", "city == 'Rome' AND score >= 3", sortBy: [.ascending("score")])
            let plan = request.explain()
            #expect(plan.operation == .query && plan.indexName == "byCity" && plan.keyCondition == "#n0 = :v0 AND #n1 >= :v1")
            #expect(plan.expressionAttributeNames == ["#n0": "city", "#n1": "sc"])
            #expect(plan.scanIndexForward == true && !plan.fetchesFromTable)
            let objects = try await ObjectContext(store: fixture.store).fetch(request)
            let expected = (0..<3).flatMap { u in (0..<10).filter { (u + $0) % 3 == 2 && $0 % 5 >= 3 } }
            #expect(objects.count == expected.count && objects.count > 0)
            let scores = objects.compactMap { $0["score"] as? Double }
            #expect(scores == scores.sorted() && scores.allSatisfy { $0 >= 3 })
            #expect(fixture.takeCounts() == ["Query": 1])
            // Indexes are sparse: without a condition on the sort key (score), an item without
            // a score is not in byCity, so the index cannot answer `city == 'Rome'` alone.
            #expect(try fixture.request("Visit", "city == 'Rome'").explain().operation == .scan)
            #expect(try fixture.request("Visit", "city == 'Rome' AND score != nil").explain().indexName == "byCity")
        }
    }

    @Test func localIndexBeatsTheTableWhenItConstrainsMoreKeys() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            let request = try fixture.request("Visit", "user == 'u1' AND score < 1")
            let plan = request.explain()
            #expect(plan.operation == .query && plan.indexName == "byScore" && plan.indexReadsFromTable && !plan.fetchesFromTable)
            let objects = try await ObjectContext(store: fixture.store).fetch(request)
            #expect(Set(ids(objects)) == ["u1/0", "u1/5"])
            // The index projects only keys: the Query reads the rest from the table itself.
            #expect(objects.allSatisfy { $0["city"] != nil && $0["score"] != nil })
            #expect(fixture.takeCounts() == ["Query": 1])
            // A condition on an attribute the index does not project stays in the filter: the
            // read names the attribute, so the index reads it from the table before filtering.
            let unprojected = try fixture.request("Visit", "user == 'u1' AND score < 3 AND city BEGINSWITH 'O'")
            #expect(unprojected.explain().filter == "begins_with(#n2, :v2)" && unprojected.explain().memoryFilter == nil)
            #expect(unprojected.explain().indexName == "byScore" && unprojected.explain().indexReadsFromTable)
            // u1: at 0…9, score at % 5, city Oslo when (1 + at) % 3 == 0: at 2, 5, 8 → scores 2, 0, 3.
            let expected: Set<String> = ["u1/2", "u1/5"]
            #expect(Set(ids(try await ObjectContext(store: fixture.store).fetch(unprojected))) == expected)
            #expect(Set(ids(try await ObjectContext(store: fixture.store).fetchObjectIDs(unprojected))) == expected)
            #expect(try await ObjectContext(store: fixture.store).count(for: unprojected) == 2)
            #expect(fixture.takeCounts() == ["Query": 3])
            // Strongly consistent reads are not offered on global indexes: the planner avoids them.
            var consistent = try fixture.request("Visit", "city == 'Rome' AND score >= 3")
            #expect(consistent.explain().indexName == "byCity")
            consistent.consistentRead = true
            #expect(consistent.explain().operation == .scan)
        }
    }

    @Test func keysOnlyIndexReadsTheRestFromTheTable() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            let request = try fixture.request("Visit", "note == 'n1' AND score > 1")
            let plan = request.explain()
            #expect(plan.operation == .query && plan.indexName == "byNote" && plan.fetchesFromTable)
            #expect(plan.filter == nil && plan.memoryFilter == "sc > {\"N\":\"1\"}")
            let objects = try await ObjectContext(store: fixture.store).fetch(request)
            // note n1: at 3 and 9 of every user; score = at % 5 is 3 and 4, both > 1.
            #expect(Set(ids(objects)) == ["u0/3", "u0/9", "u1/3", "u1/9", "u2/3", "u2/9"])
            #expect(objects.allSatisfy { ($0["score"] as? Double ?? 0) > 1 && $0["city"] != nil })
            #expect(fixture.takeCounts() == ["Query": 1, "BatchGetItem": 1])
            // Object IDs need only keys: the index answers alone.
            let keys = try fixture.request("Visit", "note == 'n1'")
            let ids = try await ObjectContext(store: fixture.store).fetchObjectIDs(keys)
            #expect(ids.count == Self.visits.filter { $0["note"] == .s("n1") }.count)
            #expect(fixture.takeCounts() == ["Query": 1])
        }
    }

    @Test func anythingElseIsAScanWithAFilter() async throws {
        try await withFetchStore { fixture in
            try await fixture.put(Self.visits, into: "Visits")
            let request = try fixture.request("Visit", "score > 3 OR city BEGINSWITH 'Ber'")
            let plan = request.explain()
            #expect(plan.operation == .scan && plan.filter == "#n0 > :v0 OR begins_with(#n1, :v1)")
            let objects = try await ObjectContext(store: fixture.store).fetch(request)
            let expected = Self.visits.filter { $0["sc"] == .n(DynamoNumber(4)) || $0["city"] == .s("Bergen") }
            #expect(objects.count == expected.count)
            #expect(fixture.takeCounts() == ["Scan": 1])
        }
    }

    @Test func predicatesThatNeverHoldSendNothing() async throws {
        try await withFetchStore { fixture in
            for format in ["FALSEPREDICATE", "at BETWEEN {5, 1}", "user IN {} AND at == 1", "city == 'x' AND FALSEPREDICATE"] {
                let request = try fixture.request("Visit", format)
                #expect(request.explain().operation == .none, "\(format)")
                #expect(try await ObjectContext(store: fixture.store).fetch(request).isEmpty)
            }
            #expect(fixture.takeCounts() == [:])
        }
    }

    @Test func descriptionsSayWhatItCosts() throws {
        let model = try FetchModel.model()
        let query = try FetchRequest(
            "Visit", in: model, predicate: FetchPredicate("user == 'a' AND at > 1 AND flag == YES"),
            sortBy: [.ascending("at")])
        #expect(query.explain().description == "Query on Visits: key #n0 = :v0 AND #n1 > :v1, filter #n2 = :v2, in key order")
        let scan = try FetchRequest("Visit", in: model, predicate: FetchPredicate("flag == NO"), sortBy: [.ascending("city")])
        #expect(scan.explain().description == "Scan on Visits, filter #n0 = :v0, sorted in memory")
    }
}

@Suite struct MultiAttributeIndexPlannerTests {
    static let score = EntityDescription(
        "Score", tableName: "Scores", hashKey: "id",
        attributes: [
            AttributeDescription("id", .string), AttributeDescription("game", .string),
            AttributeDescription("region", .string), AttributeDescription("level", .int32),
            AttributeDescription("points", .int64),
        ],
        indexes: [.global("byGame", partitionKey: ["game", "region"], sortKey: ["level", "points"])])

    @Test func everyPartitionAttributeThenSortAttributesLeftToRight() async throws {
        let model = try StoreModel([Self.score])
        try await withFetchStore { fixture in
            let store = DynamoStore(model: model, client: fixture.client)
            try await store.createTables(pollInterval: .milliseconds(10))
            let items: [Item] = (0..<40).map { n in
                [
                    "id": .s("s\(n)"), "game": .s(n % 2 == 0 ? "chess" : "go"), "region": .s(n % 4 < 2 ? "eu" : "us"),
                    "level": .n(DynamoNumber(n % 3)), "points": .n(DynamoNumber(n)),
                ]
            }
            try await fixture.put(items, into: "Scores")
            let request = try FetchRequest(
                "Score", in: model,
                predicate: FetchPredicate("game == 'chess' AND region == 'eu' AND level == 1 AND points > 10"),
                sortBy: [.descending("points")])
            let plan = request.explain()
            #expect(plan.operation == .query && plan.indexName == "byGame")
            #expect(plan.keyCondition == "#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND #n3 > :v3")
            let objects = try await ObjectContext(store: store).fetch(request)
            let expected = (0..<40).filter { $0 % 2 == 0 && $0 % 4 < 2 && $0 % 3 == 1 && $0 > 10 }.sorted(by: >)
            #expect(objects.map { $0["points"] as? Int64 } == expected.map { Int64($0) })
            #expect(fixture.takeCounts() == ["Query": 1])
            // Without every partition attribute the index cannot answer.
            let partial = try FetchRequest("Score", in: model, predicate: FetchPredicate("game == 'chess' AND level == 1"))
            #expect(partial.explain().operation == .scan)
            // Skipping a sort attribute leaves the later ones out of the key condition; as the
            // sort attributes are not optional, every item is in the index, which is queried
            // by its partition (a filter may not name index keys: `points` is tested in memory).
            let skipping = try FetchRequest("Score", in: model, predicate: FetchPredicate("game == 'go' AND region == 'us' AND points > 3"))
            #expect(skipping.explain().operation == .query && skipping.explain().indexName == "byGame")
            #expect(skipping.explain().keyCondition == "#n0 = :v0 AND #n1 = :v1" && skipping.explain().memoryFilter == "points > {\"N\":\"3\"}")
            let found: [Int64?] = try await ObjectContext(store: store).fetch(skipping).map { $0["points"] as? Int64 }
            let wanted: [Int] = (0..<40).filter { n in n % 2 == 1 && n % 4 >= 2 && n > 3 }
            #expect(Set(found) == Set(wanted.map { Int64($0) }))
            #expect(fixture.takeCounts() == ["Query": 1])
        }
    }
}
