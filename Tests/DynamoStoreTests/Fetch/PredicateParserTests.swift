import DynamoStore
import Foundation
import Testing

@Suite struct PredicateParserTests {
    @Test(arguments: [
        ("age == 3", FetchPredicate.compare("age", .equal, .int(3))),
        ("age = 3", .compare("age", .equal, .int(3))),
        ("age != 3", .compare("age", .notEqual, .int(3))),
        ("age <> 3", .compare("age", .notEqual, .int(3))),
        ("age < 3", .compare("age", .less, .int(3))),
        ("age <= 3", .compare("age", .lessOrEqual, .int(3))),
        ("age =< 3", .compare("age", .lessOrEqual, .int(3))),
        ("age > -3", .compare("age", .greater, .int(-3))),
        ("age >= 2.5", .compare("age", .greaterOrEqual, .double(2.5))),
        ("age => 1e3", .compare("age", .greaterOrEqual, .double(1000))),
        ("3 < age", .compare("age", .greater, .int(3))),
        ("name == 'it\\'s'", .compare("name", .equal, .string("it's"))),
        ("name == \"x\"", .compare("name", .equal, .string("x"))),
        ("name == nil", .compare("name", .equal, .null)),
        ("name != NULL", .compare("name", .notEqual, .null)),
        ("flag == YES", .compare("flag", .equal, .bool(true))),
        ("flag == false", .compare("flag", .equal, .bool(false))),
        ("name BEGINSWITH 'Ab'", .beginsWith("name", .string("Ab"))),
        ("name contains 'b'", .contains("name", .string("b"))),
        ("age BETWEEN {1, 5}", .between("age", .int(1), .int(5))),
        ("age IN {1, 2, 3}", .isIn("age", .list([.int(1), .int(2), .int(3)]))),
        ("#name == 'x'", .compare("name", .equal, .string("x"))),
        ("#AND == 'x'", .compare("AND", .equal, .string("x"))),
        ("location.id == 'L1'", .compare("location.id", .equal, .string("L1"))),
        ("TRUEPREDICATE", .constant(true)),
        ("age >= $min", .compare("age", .greaterOrEqual, .variable("min"))),
    ])
    func parsesComparisons(format: String, expected: FetchPredicate) throws {
        #expect(try FetchPredicate(format) == expected)
    }

    @Test func andBindsTighterThanOrAndNotTighterThanBoth() throws {
        let a = FetchPredicate.compare("a", .equal, .int(1))
        let b = FetchPredicate.compare("b", .equal, .int(2))
        let c = FetchPredicate.compare("c", .equal, .int(3))
        #expect(try FetchPredicate("a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try FetchPredicate("(a == 1 || b == 2) && c == 3") == .and([.or([a, b]), c]))
        #expect(try FetchPredicate("NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try FetchPredicate("!(a == 1 OR b == 2)") == .not(.or([a, b])))
        #expect(try FetchPredicate("a == 1 and b == 2 or c == 3") == .or([.and([a, b]), c]))
    }

    @Test func argumentsBecomeValues() throws {
        let date = Date(timeIntervalSince1970: 1_000)
        let id = UUID()
        let p = try FetchPredicate(
            "name == %@ AND age > %d AND at < %@ AND id == %@ AND score IN %@ AND note == %@",
            "x", 3, date, id, [1.5, 2.5], nil)
        #expect(
            p
                == .and([
                    .compare("name", .equal, .string("x")), .compare("age", .greater, .int(3)),
                    .compare("at", .less, .date(date)), .compare("id", .equal, .uuid(id)),
                    .isIn("score", .list([.double(1.5), .double(2.5)])), .compare("note", .equal, .null),
                ]))
        #expect(try FetchPredicate("%K == %@", "name", "x") == .compare("name", .equal, .string("x")))
        #expect(try FetchPredicate("age BETWEEN %@", [1, 9]) == .between("age", .int(1), .int(9)))
    }

    @Test func substitutionVariables() throws {
        let template = try FetchPredicate("age >= $min AND name IN $names")
        #expect(template.variableNames == ["min", "names"])
        let p = try template.substituting(["min": 18, "names": ["a", "b"]])
        #expect(p == .and([.compare("age", .greaterOrEqual, .int(18)), .isIn("name", .list([.string("a"), .string("b")]))]))
        #expect(p.variableNames.isEmpty)
        #expect(throws: FetchPredicateError("no value for substitution variable $names")) {
            try template.substituting(["min": 1])
        }
    }

    @Test func descriptionRoundTrips() throws {
        let p = try FetchPredicate("(a == 1 OR b BEGINSWITH 'x') AND NOT c IN {1, 2} AND d BETWEEN {1, 2}")
        #expect(p.description == "(a == 1 OR b BEGINSWITH \"x\") AND (NOT c IN {1, 2}) AND d BETWEEN {1, 2}")
        #expect(try FetchPredicate(p.description) == p)
    }

    @Test(arguments: [
        ("age >", "Unable to parse \"age >\": expected a key path or a value at offset 5"),
        ("age 3", "Unable to parse \"age 3\": expected a comparison operator at offset 4"),
        ("(age == 3", "Unable to parse \"(age == 3\": expected ')' at offset 9"),
        ("age == 3 age", "Unable to parse \"age == 3 age\": expected AND, OR or the end at offset 9"),
        ("name == 'abc", "Unable to parse \"name == 'abc\": unterminated string at offset 8"),
        ("age ~ 3", "Unable to parse \"age ~ 3\": unexpected character '~' at offset 4"),
        ("age == %z", "Unable to parse \"age == %z\": unknown format specifier '%z' at offset 7"),
        (
            "name ENDSWITH 'x'",
            "Unsupported predicate \"name ENDSWITH 'x'\": ENDSWITH is not supported: DynamoDB expressions can test a prefix (begins_with) but not a suffix"
        ),
        ("name LIKE 'a*'", "Unsupported predicate \"name LIKE 'a*'\": LIKE is not supported: DynamoDB expressions have no wildcard matching"),
        (
            "name MATCHES 'a.*'",
            "Unsupported predicate \"name MATCHES 'a.*'\": MATCHES is not supported: DynamoDB expressions have no regular expressions"
        ),
        (
            "name ==[c] 'x'",
            "Unsupported predicate \"name ==[c] 'x'\": the [c] modifier is not supported: DynamoDB compares strings by their bytes, exactly (no case or diacritic folding)"
        ),
        (
            "name BEGINSWITH[cd] 'x'",
            "Unsupported predicate \"name BEGINSWITH[cd] 'x'\": the [cd] modifier is not supported: DynamoDB compares strings by their bytes, exactly (no case or diacritic folding)"
        ),
        (
            "ANY checkins.comment == 'x'",
            "Unsupported predicate \"ANY checkins.comment == 'x'\": ANY is not supported: key paths through to-many relationships cannot be evaluated by DynamoDB"
        ),
        (
            "SUBQUERY(checkins, $c, $c.x == 1).@count > 0",
            "Unsupported predicate \"SUBQUERY(checkins, $c, $c.x == 1).@count > 0\": SUBQUERY is not supported: DynamoDB cannot evaluate a query inside a filter"
        ),
        (
            "checkins.@count > 2",
            "Unsupported predicate \"checkins.@count > 2\": the aggregate checkins.@count is not supported: DynamoDB expressions cannot compute over collections"
        ),
        (
            "@sum.x > 2",
            "Unsupported predicate \"@sum.x > 2\": the aggregate @sum is not supported: DynamoDB expressions cannot compute over collections"
        ),
        (
            "FUNCTION(name, 'length') > 2",
            "Unsupported predicate \"FUNCTION(name, 'length') > 2\": FUNCTION is not supported: DynamoDB expressions cannot call arbitrary functions"
        ),
        ("a == b", "Unsupported predicate \"a == b\": comparing key path a with key path b is not supported; compare a key path with a value"),
        ("1 == 2", "Unsupported predicate \"1 == 2\": == compares two constants; one side must be a key path"),
        ("'x' IN tags", "Unsupported predicate \"'x' IN tags\": IN needs the key path on its left (\"x\" IN tags tests membership in a collection)"),
        ("age BETWEEN {1, 2, 3}", "Unsupported predicate \"age BETWEEN {1, 2, 3}\": BETWEEN needs two bounds, as {lower, upper}, not {1, 2, 3}"),
        ("age IN 3", "Unsupported predicate \"age IN 3\": IN needs a list, as {a, b} or an array argument, not 3"),
    ])
    func rejectsWithExactMessages(format: String, message: String) {
        #expect(throws: FetchPredicateError(message)) { try FetchPredicate(format) }
    }

    @Test func argumentCountsMustMatch() {
        #expect(throws: FetchPredicateError("\"a == %@ AND b == %@\" uses more arguments than the 1 given")) {
            try FetchPredicate("a == %@ AND b == %@", 1)
        }
        #expect(throws: FetchPredicateError("\"a == %@\" uses 1 argument but 2 were given")) {
            try FetchPredicate("a == %@", 1, 2)
        }
        #expect(throws: FetchPredicateError("\"%K == 1\": the %K argument must be a key path string, not a number")) {
            try FetchPredicate("%K == 1", 5)
        }
    }
}
