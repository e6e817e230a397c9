import DynamoAPI
import DynamoStore
import DynamoTestSupport
import Testing

/// Random predicates over random data sets: what a fetch returns (whatever plan it got) equals
/// an independent evaluation of the same predicate over the same Swift values, with
/// DynamoDB's rules for absent attributes. Seeded, so a failure names a reproducible case.
@Suite struct PredicatePropertyTests {
    struct Visit {
        var user: String
        var at: Int
        var city: String?
        var score: Double?
        var note: String?
        var flag: Bool?

        var item: Item { visitItem(user, at, city: city, score: score, note: note, flag: flag) }
        var id: String { "\(user)/\(at)" }

        func value(_ name: String) -> PredicateValue? {
            switch name {
            case "user": .string(user)
            case "at": .int(Int64(at))
            case "city": city.map(PredicateValue.string)
            case "score": score.map(PredicateValue.double)
            case "note": note.map(PredicateValue.string)
            case "flag": flag.map(PredicateValue.bool)
            default: nil
            }
        }
    }

    static let users = ["u0", "u1", "u2", "u3"]
    static let cities: [String?] = ["Oslo", "Bergen", "Rome", "Bari", nil]
    static let scores: [Double?] = [nil, 0, 0.5, 1, 2.5, 3, 4]
    static let notes: [String?] = [nil, "a", "ab", "b", "ba"]
    static let flags: [Bool?] = [nil, true, false]

    static func dataSet(_ random: inout SeededRandom) -> [Visit] {
        users.flatMap { user in
            (0..<16).filter { _ in random.chance(60) }.map { at in
                Visit(
                    user: user, at: at, city: random.pick(cities), score: random.pick(scores),
                    note: random.pick(notes), flag: random.pick(flags))
            }
        }
    }

    // MARK: - Random predicates

    static func leaf(_ random: inout SeededRandom) -> FetchPredicate {
        let ops: [PredicateOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        switch random.int(0..<14) {
        case 0: return .compare("user", random.pick([.equal, .equal, .notEqual, .less]), .string(random.pick(users)))
        case 1: return .isIn("user", .list((0..<random.int(1..<4)).map { _ in .string(random.pick(users)) }))
        case 2: return .compare("at", random.pick(ops), .int(Int64(random.int(0..<16))))
        case 3:
            let a = random.int(0..<16), b = random.int(0..<16)
            return .between("at", .int(Int64(a)), .int(Int64(b)))
        case 4: return .isIn("at", .list((0..<random.int(1..<5)).map { _ in .int(Int64(random.int(0..<16))) }))
        case 5: return .compare("city", random.pick(ops), random.pick(cities).map(PredicateValue.string) ?? .string("M"))
        case 6: return .compare("city", random.pick([.equal, .notEqual]), .null)
        case 7:
            return random.chance(50)
                ? .beginsWith("city", .string(random.pick(["B", "Ba", "O", "R"])))
                : .contains("city", .string(random.pick(["o", "r", "e", "x"])))
        case 8: return .compare("score", random.pick(ops), .double(random.pick(scores.compactMap { $0 } + [1.5])))
        case 9: return .between("score", .double(random.pick([0, 0.5, 1])), .int(Int64(random.int(1..<5))))
        case 10: return .compare("score", random.pick([.equal, .notEqual]), .null)
        case 11:
            return random.chance(50)
                ? .beginsWith("note", .string(random.pick(["a", "b", "ab"])))
                : .contains("note", .string(random.pick(["a", "b"])))
        case 12: return .compare("note", random.pick([.equal, .notEqual, .greater]), .string(random.pick(["a", "ab", "b"])))
        default: return .compare("flag", random.pick([.equal, .notEqual]), .bool(random.chance(50)))
        }
    }

    static func predicate(_ random: inout SeededRandom, depth: Int) -> FetchPredicate {
        guard depth > 0, random.chance(55) else { return leaf(&random) }
        switch random.int(0..<5) {
        case 0, 1: return .and((0..<random.int(2..<4)).map { _ in predicate(&random, depth: depth - 1) })
        case 2, 3: return .or((0..<random.int(2..<4)).map { _ in predicate(&random, depth: depth - 1) })
        default: return .not(predicate(&random, depth: depth - 1))
        }
    }

    /// A predicate, often anchored on a key so that every plan gets exercised.
    static func anchored(_ random: inout SeededRandom) -> FetchPredicate {
        let rest = predicate(&random, depth: 3)
        switch random.int(0..<7) {
        case 0: return .and([.compare("user", .equal, .string(random.pick(users))), rest])
        case 1:
            return .and([
                .compare("user", .equal, .string(random.pick(users))),
                .compare("at", random.pick([.greater, .lessOrEqual]), .int(Int64(random.int(0..<16)))), rest,
            ])
        case 2: return .and([.compare("city", .equal, .string(random.pick(["Oslo", "Rome"]))), rest])
        case 3: return .and([.compare("note", .equal, .string(random.pick(["a", "b"]))), rest])
        case 4: return .and([.isIn("user", .list([.string("u1"), .string("u3")])), .compare("at", .equal, .int(Int64(random.int(0..<16))))])
        case 5: return .and([.compare("at", .equal, .int(Int64(random.int(0..<16)))), .compare("user", .equal, .string(random.pick(users))), rest])
        default: return rest
        }
    }

    // MARK: - The oracle

    static func compare(_ a: PredicateValue, _ b: PredicateValue) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y ? 0 : Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) ? -1 : 1
        case (.int(let x), .int(let y)): return x == y ? 0 : x < y ? -1 : 1
        case (.double(let x), .double(let y)): return x == y ? 0 : x < y ? -1 : 1
        case (.int(let x), .double(let y)): return compare(.double(Double(x)), .double(y))
        case (.double, .int(let y)): return compare(a, .double(Double(y)))
        case (.bool(let x), .bool(let y)): return x == y ? 0 : nil
        default: return nil
        }
    }

    static func holds(_ predicate: FetchPredicate, for visit: Visit) -> Bool {
        switch predicate {
        case .constant(let value): return value
        case .and(let parts): return parts.allSatisfy { holds($0, for: visit) }
        case .or(let parts): return parts.contains { holds($0, for: visit) }
        case .not(let inner): return !holds(inner, for: visit)
        case .compare(let name, let op, .null):
            return (visit.value(name) == nil) == (op == .equal)
        case .compare(let name, let op, let operand):
            guard let value = visit.value(name) else { return op == .notEqual }
            if op == .notEqual { return compare(value, operand) != 0 }
            guard let order = compare(value, operand) else { return false }
            switch op {
            case .equal: return order == 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            case .notEqual: return order != 0
            }
        case .between(let name, let low, let high):
            guard let value = visit.value(name), let a = compare(value, low), let b = compare(value, high) else { return false }
            return a >= 0 && b <= 0
        case .isIn(let name, .list(let values)):
            guard let value = visit.value(name) else { return false }
            return values.contains { compare(value, $0) == 0 }
        case .beginsWith(let name, .string(let prefix)):
            guard case .string(let text)? = visit.value(name) else { return false }
            return text.hasPrefix(prefix)
        case .contains(let name, .string(let part)):
            guard case .string(let text)? = visit.value(name) else { return false }
            return text.contains(part)
        default:
            Issue.record("the oracle does not know \(predicate)")
            return false
        }
    }

    static let sorts: [[FetchSort]] = [
        [], [.ascending("at")], [.descending("at")], [.ascending("city"), .descending("at")],
        [.descending("score")],
    ]

    static func sortValues(_ visit: Visit, _ sorts: [FetchSort]) -> String {
        sorts.map { sort in visit.value(sort.key).map { "\($0)" } ?? "∅" }.joined(separator: "|")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func fetchesAgreeWithTheOracle(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let visits = Self.dataSet(&random)
        let byID = Dictionary(uniqueKeysWithValues: visits.map { ($0.id, $0) })
        try await withFetchStore { fixture in
            try await fixture.put(visits.map(\.item), into: "Visits")
            var plans: Set<String> = []
            for round in 0..<60 {
                let predicate = Self.anchored(&random)
                let sorts = random.pick(Self.sorts)
                var request = try FetchRequest("Visit", in: fixture.model, predicate: predicate, sortBy: sorts)
                if random.chance(25) { request.fetchLimit = random.int(1..<6) }
                if random.chance(25) { request.fetchBatchSize = random.int(1..<7) }
                let plan = request.explain()
                plans.insert(plan.operation.rawValue + (plan.indexName ?? ""))
                let context = ObjectContext(store: fixture.store)
                let fetched = try await context.fetch(request).map { object -> Visit in
                    let key = object.objectID.key
                    guard case .s(let user)? = key["user"], case .n(let at)? = key["at"],
                        let visit = byID["\(user)/\(at)"]
                    else { preconditionFailure("unknown object \(object)") }
                    return visit
                }
                let expected = visits.filter { Self.holds(predicate, for: $0) }
                let label =
                    "seed \(seed) round \(round): \(predicate) sorted \(sorts), limit \(request.fetchLimit.map(String.init) ?? "-"), plan \(plan)"
                let fetchedIDs = Set(fetched.map(\.id)), expectedIDs = Set(expected.map(\.id))
                #expect(fetchedIDs.count == fetched.count, "duplicates: \(label)")
                if let limit = request.fetchLimit {
                    #expect(fetched.count == min(limit, expected.count), "\(label)")
                    #expect(fetchedIDs.isSubset(of: expectedIDs), "\(label)")
                } else {
                    #expect(fetchedIDs == expectedIDs, "\(label)")
                }
                if !sorts.isEmpty {
                    let ordered = expected.sorted { a, b in
                        for sort in sorts {
                            let x = a.value(sort.key), y = b.value(sort.key)
                            if x == y { continue }
                            guard let x else { return sort.ascending }
                            guard let y else { return !sort.ascending }
                            let order = Self.compare(x, y) ?? 0
                            if order != 0 { return sort.ascending ? order < 0 : order > 0 }
                        }
                        return false
                    }
                    #expect(
                        fetched.map { Self.sortValues($0, sorts) } == ordered.prefix(fetched.count).map { Self.sortValues($0, sorts) },
                        "\(label)")
                }
                if !plan.sortsInMemory && (plan.operation == .query || plan.operation == .scan) && round % 3 == 0 {
                    // Walking the cursors page by page yields every match exactly once, in order.
                    var paging = request
                    paging.fetchLimit = random.int(1..<4)
                    var walked: [String] = []
                    repeat {
                        let page = try await context.fetchPage(paging)
                        walked += page.objects.map { object in
                            if case .s(let user)? = object.objectID.key["user"], case .n(let at)? = object.objectID.key["at"] {
                                return "\(user)/\(at)"
                            }
                            return "?"
                        }
                        paging.cursor = page.cursor
                    } while paging.cursor != nil && walked.count <= expected.count
                    #expect(Set(walked) == expectedIDs && walked.count == expected.count, "cursor walk: \(label)")
                    if request.fetchLimit == nil && !sorts.isEmpty {
                        #expect(walked == fetched.map(\.id) || sorts.count > 1, "cursor order: \(label)")
                    }
                }
                if round % 6 == 0 {
                    var counting = request
                    counting.fetchLimit = nil
                    #expect(try await context.count(for: counting) == expected.count, "count: \(label)")
                }
            }
            #expect(plans.isSuperset(of: ["GetItem", "BatchGetItem", "Query", "QuerybyCity", "QuerybyNote", "Scan"]), "\(plans)")
        }
    }

    /// The same with unsaved work in the context: random inserts, changes and deletes, then
    /// fetches that include them must equal the oracle over the data as the context sees it,
    /// and fetches that do not must equal the oracle over the stored data.
    @Test(arguments: [11, 12] as [UInt64])
    func pendingChangesAgreeWithTheOracle(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let stored = Self.dataSet(&random)
        try await withFetchStore { fixture in
            try await fixture.put(stored.map(\.item), into: "Visits")
            let entity = try #require(fixture.model.entity(named: "Visit"))
            let context = ObjectContext(store: fixture.store)
            let everything = try FetchRequest("Visit", in: fixture.model)
            var current = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0) })
            for object in try await context.fetch(everything) {
                guard case .s(let user)? = object.objectID.key["user"], case .n(let at)? = object.objectID.key["at"] else { continue }
                let id = "\(user)/\(at)"
                switch random.int(0..<10) {
                case 0:
                    context.delete(object)
                    current[id] = nil
                case 1, 2:
                    let city = random.pick(Self.cities), flag = random.pick(Self.flags)
                    object["city"] = city
                    object["flag"] = flag
                    current[id]?.city = city
                    current[id]?.flag = flag
                default:
                    break
                }
            }
            for n in 0..<8 {
                let visit = Visit(
                    user: random.pick(Self.users), at: 100 + n, city: random.pick(Self.cities),
                    score: random.pick(Self.scores), note: random.pick(Self.notes), flag: random.pick(Self.flags))
                let object = ManagedObject(entity: entity, context: context)
                object["user"] = visit.user
                object["at"] = Int64(visit.at)
                object["city"] = visit.city
                object["score"] = visit.score
                object["note"] = visit.note
                object["flag"] = visit.flag
                current[visit.id] = visit
            }
            for round in 0..<40 {
                let predicate = Self.anchored(&random)
                var request = try FetchRequest("Visit", in: fixture.model, predicate: predicate)
                request.includesPendingChanges = random.chance(70)
                let visible = request.includesPendingChanges ? Array(current.values) : stored
                let expected = Set(visible.filter { Self.holds(predicate, for: $0) }.map(\.id))
                let fetched = try await context.fetchObjectIDs(request).map { id -> String in
                    guard case .s(let user)? = id.key["user"], case .n(let at)? = id.key["at"] else { return "?" }
                    return "\(user)/\(at)"
                }
                let label = "seed \(seed) round \(round): \(predicate), pending \(request.includesPendingChanges), plan \(request.explain())"
                #expect(Set(fetched) == expected && fetched.count == expected.count, "\(label)")
                if round % 5 == 0 {
                    #expect(try await context.count(for: request) == expected.count, "count: \(label)")
                }
            }
        }
    }
}
