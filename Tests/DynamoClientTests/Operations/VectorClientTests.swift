import DynamoAPI
import DynamoTestSupport
import Foundation
import Testing
@testable import DynamoClient

/// Vectors as lists of numbers, the SearchVectors call and the waiters of bulk operations and
/// vector indexes, against scripted answers.
struct VectorClientTests {
    struct Note: Codable, Equatable {
        var id: String
        var embedding: [Float]
        var precise: [Double]
    }

    @Test func floatVectorsEncodeAsListsOfTheirShortestNumbers() throws {
        let note = Note(id: "n1", embedding: [0.1, -2.5, 1e-7, 3], precise: [0.1, 1.0 / 3.0])
        let item = try ItemEncoder().encode(note)
        #expect(
            item["embedding"]
                == .l([
                    .n(try DynamoNumber(parsing: "0.1")), .n(try DynamoNumber(parsing: "-2.5")), .n(try DynamoNumber(parsing: "1e-07")),
                    .n(DynamoNumber(3)),
                ]))
        #expect(item["precise"] == .l([.n(try DynamoNumber(parsing: "0.1")), .n(try DynamoNumber(parsing: "0.3333333333333333"))]))
        #expect(try ItemDecoder().decode(Note.self, from: item) == note)
        #expect(try AttributeValue.vector(note.embedding) == item["embedding"])
        #expect(item["embedding"]?.vectorComponents == note.embedding)
    }

    /// Any finite Float survives the trip through its shortest text (seeded).
    @Test func randomFloatVectorsRoundTrip() throws {
        var generator = SplitMix64(seed: 0x5EED_0040)
        for _ in 0..<200 {
            let count = Int(generator.next() % 64) + 1
            let vector = (0..<count).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: generator.next())) }.map { $0.isFinite ? $0 : 0.5 }
            let value = try AttributeValue.vector(vector)
            #expect(value.vectorComponents == vector)
        }
    }

    @Test func nonFiniteComponentsAndOtherValuesAreNoVectors() throws {
        #expect(throws: DynamoError.self) { try AttributeValue.vector([Float.nan]) }
        #expect(throws: DynamoError.self) { try AttributeValue.vector([Double.infinity]) }
        #expect(AttributeValue.l([.n(DynamoNumber(1)), .s("2")]).vectorComponents == nil)
        #expect(AttributeValue.ns([DynamoNumber(1)]).vectorComponents == nil)
        #expect(AttributeValue.l([]).vectorComponents == [])
    }

    @Test func searchVectorsSendsTheVectorAndReadsScoredItems() async throws {
        let answer = #"{"SearchResults":[{"Item":{"id":{"S":"a"}},"Score":0.0},{"Item":{"id":{"S":"b"}},"Score":0.25}]}"#
        try await withFakeServer([.ok(answer)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            var input = try SearchVectorsInput(tableName: "Notes", indexName: "by-embedding", vector: [0.5, 1], topK: 2)
            input.searchConditionExpression = "#o = :o"
            input.expressionAttributeNames = ["#o": "owner"]
            input.expressionAttributeValues = [":o": .s("ada")]
            let output = try await client.searchVectors(input)
            #expect(output.searchResults?.map { $0.item?["id"] } == [.s("a"), .s("b")])
            #expect(output.searchResults?.map(\.score) == [0.0, 0.25])
            let request = try #require(server.requests.first)
            #expect(request.headers["x-amz-target"] == "DynamoDB_20120810.SearchVectors")
            let body = try JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any]
            #expect(body?["TopK"] as? Int == 2)
            #expect((body?["SearchVector"] as? [[String: String]])?.map { $0["N"] } == ["0.5", "1"])
        }
    }

    @Test func bulkOperationWaiterSucceedsWithErrorsAndFailsOnCancel() async throws {
        let running = #"{"BulkOperationDescription":{"BulkOperationArn":"arn:b","BulkOperationStatus":"IN_PROGRESS"}}"#
        let withErrors = #"{"BulkOperationDescription":{"BulkOperationArn":"arn:b","BulkOperationStatus":"COMPLETED_WITH_ERRORS"}}"#
        let cancelled = #"{"BulkOperationDescription":{"BulkOperationArn":"arn:b","BulkOperationStatus":"CANCELLED"}}"#
        try await withFakeServer([.ok(running), .ok(withErrors)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let done = try await client.waitUntilBulkOperationCompleted("arn:b", delay: .milliseconds(1))
            #expect(done.bulkOperationStatus == .completedWithErrors)
            #expect(server.requests.count == 2)
        }
        try await withFakeServer([.ok(running), .ok(cancelled)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            await #expect(throws: DynamoClientError.waiterFailed("bulk operation arn:b CANCELLED")) {
                try await client.waitUntilBulkOperationCompleted("arn:b", delay: .milliseconds(1))
            }
        }
    }

    @Test func bulkOperationPagesFollowNextToken() async throws {
        let first = #"{"BulkOperationsSummaryList":[{"BulkOperationArn":"arn:2"}],"NextToken":"t1"}"#
        let last = #"{"BulkOperationsSummaryList":[{"BulkOperationArn":"arn:1"}]}"#
        try await withFakeServer([.ok(first), .ok(last)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            var arns: [String] = []
            for try await page in client.listBulkOperationsPages(ListBulkOperationsInput(maxResults: 1)) {
                arns += page.bulkOperationsSummaryList?.compactMap(\.bulkOperationArn) ?? []
            }
            #expect(arns == ["arn:2", "arn:1"])
            let second = try JSONSerialization.jsonObject(with: Data(server.requests[1].body.utf8)) as? [String: Any]
            #expect(second?["NextToken"] as? String == "t1")
        }
    }

    @Test func vectorIndexWaiterWaitsForTheBackfill() async throws {
        let notListed = #"{"Table":{"TableName":"t"}}"#
        let backfilling =
            #"{"Table":{"TableName":"t","VectorIndexes":[{"IndexName":"v","IndexStatus":"CREATING","Backfilling":true}]}}"#
        let active = #"{"Table":{"TableName":"t","VectorIndexes":[{"IndexName":"v","IndexStatus":"ACTIVE","Dimensions":3}]}}"#
        try await withFakeServer([.ok(notListed), .ok(backfilling), .ok(active)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let index = try await client.waitUntilVectorIndexActive("t", index: "v", delay: .milliseconds(1))
            #expect(index.dimensions == 3)
            #expect(server.requests.count == 3)
        }
    }
}

/// The client's vector calls against LocalDynamo: a table created with a vector index, items
/// written with `Codable` `[Float]` embeddings, a second index added by UpdateTable and waited
/// for, and searches whose order and scores are checked against f32 arithmetic here.
struct VectorClientServerTests {
    struct Note: Codable {
        var id: String
        var owner: String
        var embedding: [Float]
    }

    @Test func searchVectorsFindsTheNearestNotesOfAnOwner() async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            var create = CreateTableInput(
                attributeDefinitions: [
                    AttributeDefinition(attributeName: "id", attributeType: .s), AttributeDefinition(attributeName: "owner", attributeType: .s),
                ],
                tableName: "Notes", keySchema: [KeySchemaElement(attributeName: "id", keyType: .hash)], billingMode: .payPerRequest)
            create.vectorIndexes = [
                VectorIndex(
                    indexName: "by-embedding", vectorAttribute: VectorAttributeDefinition(attributeName: "embedding"),
                    searchSchema: [SearchSchemaElement(attributeName: "owner", searchSchemaElementType: .hash)],
                    projection: Projection(projectionType: .all), dimensions: 3, distanceFunction: .cosine)
            ]
            _ = try await client.createTable(create)
            let notes = [
                Note(id: "a", owner: "ada", embedding: [1, 0, 0]), Note(id: "b", owner: "ada", embedding: [0.6, 0.8, 0]),
                Note(id: "c", owner: "ada", embedding: [0, 0, 1]), Note(id: "d", owner: "bob", embedding: [1, 0, 0]),
            ]
            for note in notes {
                _ = try await client.putItem(PutItemInput(tableName: "Notes", item: try ItemEncoder().encode(note)))
            }
            var search = try SearchVectorsInput(tableName: "Notes", indexName: "by-embedding", vector: [1, 0.1, 0], topK: 2)
            search.searchConditionExpression = "#o = :o"
            search.expressionAttributeNames = ["#o": "owner"]
            search.expressionAttributeValues = [":o": .s("ada")]
            let results = try #require(try await client.searchVectors(search).searchResults)
            #expect(results.map { $0.item?["id"] } == [.s("a"), .s("b")])
            let query: [Float] = [1, 0.1, 0]
            for (result, note) in zip(results, [notes[0], notes[1]]) {
                let dot = zip(query, note.embedding).reduce(Float(0)) { $0 + $1.0 * $1.1 }
                let norms = (query.reduce(Float(0)) { $0 + $1 * $1 }).squareRoot() * (note.embedding.reduce(Float(0)) { $0 + $1 * $1 }).squareRoot()
                let expected = 1 - dot / norms
                #expect(abs(Float(try #require(result.score)) - expected) < 1e-6)
            }

            // A second index, added by UpdateTable over the stored items and waited for.
            var update = UpdateTableInput(tableName: "Notes")
            update.vectorIndexUpdates = [
                VectorIndexUpdate(
                    create: CreateVectorIndexAction(
                        indexName: "by-distance", vectorAttribute: VectorAttributeDefinition(attributeName: "embedding"),
                        projection: Projection(projectionType: .keysOnly), dimensions: 3, distanceFunction: .euclidean))
            ]
            _ = try await client.updateTable(update)
            let index = try await client.waitUntilVectorIndexActive("Notes", index: "by-distance", delay: .milliseconds(100), maximumAttempts: 100)
            #expect(index.itemCount == 4)
            let nearest = try await client.searchVectors(
                try SearchVectorsInput(tableName: "Notes", indexName: "by-distance", vector: [0, 0, 1], topK: 1))
            #expect(nearest.searchResults?.first?.item?["id"] == .s("c"))
            #expect(nearest.searchResults?.first?.score == 0)
        }
    }
}
