import DynamoAPI
import DynamoStore
import Foundation
import Testing

@Suite struct PredicateResolutionTests {
    let model: StoreModel
    let typed: StoreModel

    init() throws {
        model = try FetchModel.model()
        typed = try StoreModel(Models.types.map(\.entityDescription))
    }

    private func plan(_ entity: String, _ format: String, _ arguments: (any PredicateArgument)?...) throws -> FetchPlan {
        try FetchRequest(entity, in: model, predicate: FetchPredicate(format: format, arguments: arguments)).explain()
    }

    @Test func storageNamesAndStoredValues() throws {
        let scan = try plan("Visit", "score >= %@ AND flag == YES", 2)
        #expect(scan.expressionAttributeNames == ["#n0": "sc", "#n1": "flag"])
        #expect(scan.expressionAttributeValues == [":v0": .n(DynamoNumber(2)), ":v1": .bool(true)])
        // Any number compares with any numeric attribute, without the attribute's range check.
        let fraction = try FetchRequest("Place", in: model, predicate: FetchPredicate("rank > 2.5 AND rank < 100000000000")).explain()
        #expect(
            fraction.expressionAttributeValues == [":v0": .n(try DynamoNumber(parsing: "2.5")), ":v1": .n(try DynamoNumber(parsing: "100000000000"))])
        // Dates and UUIDs are stored the way the store writes them.
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let checkins = try FetchRequest<Checkin>(in: typed, predicate: FetchPredicate("at > %@ AND id != %@", date, id)).explain()
        #expect(checkins.expressionAttributeValues == [":v0": .s("2023-11-14T22:13:20.250Z"), ":v1": .s("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")])
        // nil tests presence; IN lists over 100 values are split (DynamoDB's limit on IN).
        #expect(try plan("Visit", "note == nil OR city != nil").filter == "attribute_not_exists(#n0) OR attribute_exists(#n1)")
        let many = try plan("Visit", "at IN %@", Array(0..<150))
        #expect(many.filter?.components(separatedBy: " IN ").count == 3)
        #expect(many.expressionAttributeValues.count == 150)
    }

    @Test func toOneRelationshipsCompareByTheDestinationKey() throws {
        let home = UUID(uuidString: "0A1B2C3D-0000-4000-8000-000000000001")!
        let id = ObjectID(entityName: "Location", key: ["id": .s(home.uuidString)])
        let byObject = try FetchRequest<Checkin>(in: typed, predicate: FetchPredicate("location == %@", id)).explain()
        let byKeyPath = try FetchRequest<Checkin>(in: typed, predicate: FetchPredicate("location.id == %@", home)).explain()
        #expect(byObject.filter == "#n0 = :v0" && byObject.expressionAttributeValues == [":v0": .s(home.uuidString)])
        #expect(byKeyPath.filter == byObject.filter && byKeyPath.expressionAttributeValues == byObject.expressionAttributeValues)
        #expect(try FetchRequest<Checkin>(in: typed, predicate: Field("location") == id).explain().filter == "#n0 = :v0")
    }

    @Test(arguments: [
        ("nmae == 'x'", "Visit has no property named nmae"),
        (
            "place.name == 'x'",
            "key path place.name reads Place.name through Visit.place; DynamoDB cannot join tables, so only place.id (the stored key) can be compared"
        ),
        ("score.x == 1", "key path score.x: Visit.score is double; key paths into attribute values are not supported"),
        ("city == 3", "Visit.city (string) cannot be compared with 3: invalid value: Visit.city is string; got Int64"),
        ("at == 'x'", "Visit.at (int64) cannot be compared with \"x\": invalid value: Visit.at is int64; got String"),
        ("at < nil", "at < nil: only == and != can compare with nil"),
        ("at BEGINSWITH '1'", "at BEGINSWITH: BEGINSWITH applies to string and data attributes; Visit.at is int64"),
        ("city CONTAINS 3", "city CONTAINS needs a string, not a number"),
        ("flag BETWEEN {NO, YES}", "flag BETWEEN: Visit.flag is bool, which has no order"),
        ("city IN {'a', nil}", "city IN: nil cannot be a member of an IN list; test city == nil instead"),
        ("at >= $min", "the predicate has unsubstituted variables: $min; call substituting(_:) first"),
    ])
    func refusedWhenTheRequestIsBuilt(format: String, message: String) {
        #expect(throws: FetchPredicateError(message)) {
            try FetchRequest("Visit", in: model, predicate: FetchPredicate(format))
        }
    }

    @Test func toManyRelationshipsAndOtherMisusesAreRefused() {
        #expect(
            throws: FetchPredicateError(
                "key path neighbours.name goes through the to-many relationship Place.neighbours; DynamoDB expressions cannot test the members of a relationship"
            )
        ) {
            try FetchRequest("Place", in: model, predicate: FetchPredicate("neighbours.name == 'x'"))
        }
        #expect(throws: FetchPredicateError("Visit.place is a relationship to Place, not to Visit")) {
            try FetchRequest("Visit", in: model, predicate: FetchPredicate("place == %@", ObjectID(entityName: "Visit", key: ["user": .s("u")])))
        }
        #expect(throws: FetchPredicateError("Sample.address (codable) is stored as a map; only == nil and != nil can test it")) {
            try FetchRequest<Sample>(in: typed, predicate: FetchPredicate("address == 'x'"))
        }
        #expect(throws: FetchPredicateError("cannot sort by the relationship Visit.place")) {
            try FetchRequest("Visit", in: model, sortBy: [.ascending("place")])
        }
        #expect(throws: FetchPredicateError("cannot fetch nope: Visit has no property named nope")) {
            try FetchRequest("Visit", in: model, propertiesToFetch: ["nope"])
        }
        // DynamoDB's 4 KB limit on an expression's text is checked when the request is built.
        do {
            _ = try FetchRequest("Visit", in: model, predicate: FetchPredicate("at IN %@", Array(0..<1_000)))
            Issue.record("a 1000-value IN was accepted")
        } catch {
            // DynamoClient's expression builder refuses it before DynamoExpressions' compiler sees it.
            #expect(error.message == "the predicate is not a valid DynamoDB expression: the FilterExpression is 6996 bytes; DynamoDB allows 4096")
        }
        #expect(throws: FetchPredicateError("the model has no entity named Nope")) {
            try FetchRequest("Nope", in: model)
        }
        #expect(throws: FetchPredicateError("key path place.id: the destination entity Place is not known; build the request with the store's model"))
        {
            try FetchRequest(entity: FetchModel.visit, predicate: FetchPredicate("place.id == 'x'"))
        }
    }

    @Test func theBuilderMakesTheSamePredicates() throws {
        let built = Field("age") >= 18 && (Field("name").beginsWith("A") || Field("city").isIn(["Oslo", "Bergen"])) && !Field("note").isNil
        let parsed = try FetchPredicate("age >= 18 AND (name BEGINSWITH 'A' OR city IN {'Oslo', 'Bergen'}) AND NOT note == nil")
        #expect(built == parsed)
        #expect(Field("at").between(1, 5) == (try FetchPredicate("at BETWEEN {1, 5}")))
        #expect((Field("a") == 1 || Field("b") != 2 || Field("c") < 3) == (try FetchPredicate("a == 1 OR b != 2 OR c < 3")))
        #expect(Field("note").contains("x") == (try FetchPredicate("note CONTAINS 'x'")))
    }
}
