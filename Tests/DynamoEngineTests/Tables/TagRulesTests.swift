import DynamoAPI
@testable import DynamoEngine
import Testing

/// TagResource and UntagResource against DynamoDB's tag rules (measurements of the service,
/// 2026-10): the exact refusal, and a refused request changes nothing.
@Suite struct TagRulesTests {
    static let arn = "arn:aws:dynamodb:us-east-1:000000000000:table/Things"

    static func database() throws -> Database {
        let database = try Database(path: nil, region: "us-east-1")
        try DatabaseTests.makeTable(database)
        return database
    }

    static func tags(_ database: Database) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try database.listTags(arn: arn).map { ($0.key, $0.value) })
    }

    @Test func refusalsNameTheRuleAndTheOffendingText() throws {
        let database = try Self.database()
        let cases: [([(key: String, value: String)], String)] = [
            ([("good", "v"), ("bad#char", "v")], "The Tag Key provided is invalid, Key: bad#char"),
            ([("k", "100%")], "The Tag Value provided is invalid, Value: 100%"),
            ([("AWS:x", "v")], "Tag Key cannot be prefixed with aws:, Key: AWS:x"),
            ([("dup", "1"), ("dup", "2")], "Duplicate Tag Keys provided as input: Duplicate Tag Key found dup"),
            ([], "Atleast one Tag needs to be provided as Input."),
        ]
        for (tags, message) in cases {
            #expect(throws: DynamoError.validation(message)) { try database.tagResource(arn: Self.arn, tags: tags) }
        }
        #expect(throws: DynamoError.validation("Atleast one Tag Key needs to be provided as Input.")) {
            try database.untagResource(arn: Self.arn, keys: [])
        }
        #expect(try Self.tags(database).isEmpty)
        try database.tagResource(arn: Self.arn, tags: [("ключ", "café a+b-c=d.e_f:g/h@i")])
        #expect(try Self.tags(database) == ["ключ": "café a+b-c=d.e_f:g/h@i"])
    }

    /// Random TagResource and UntagResource requests against a model of the rules: each is
    /// accepted exactly when the model accepts it, and the tags are then the model's.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomRequestsFollowTheRules(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let database = try Self.database()
        var model: [String: String] = [:]
        let pieces = ["a", "B", "7", " ", "é", "+", "@", "/", ":", "#", ",", "aws:", "k", "%"]
        func text() -> String {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        func allowed(_ text: String) -> Bool { !text.contains(where: { "#,%".contains($0) }) }
        func reserved(_ key: String) -> Bool { key.lowercased().hasPrefix("aws:") }
        for step in 0..<200 {
            if Bool.random(using: &random) || model.isEmpty {
                let tags = (0..<Int.random(in: 0...12, using: &random)).map { _ in (key: text(), value: text()) }
                var merged = model
                var valid = !tags.isEmpty
                var seen = Set<String>()
                for tag in tags where valid {
                    valid = allowed(tag.key) && allowed(tag.value) && !reserved(tag.key) && seen.insert(tag.key).inserted
                    merged[tag.key] = tag.value
                }
                valid = valid && merged.count <= TagRules.maximumTags
                do {
                    try database.tagResource(arn: Self.arn, tags: tags)
                    #expect(valid, "seed \(seed), step \(step): accepted \(tags)")
                    model = merged
                } catch let error as DynamoError {
                    #expect(!valid && error.code == .validation, "seed \(seed), step \(step): \(error)")
                }
            } else {
                let keys = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    Bool.random(using: &random) ? model.keys.randomElement(using: &random)! : text()
                }
                let valid = !keys.isEmpty && !keys.contains(where: reserved)
                do {
                    try database.untagResource(arn: Self.arn, keys: keys)
                    #expect(valid, "seed \(seed), step \(step): accepted untag \(keys)")
                    for key in keys { model[key] = nil }
                } catch let error as DynamoError {
                    #expect(!valid && error.code == .validation, "seed \(seed), step \(step): \(error)")
                }
            }
            #expect(try Self.tags(database) == model, "seed \(seed), step \(step)")
        }
    }
}
