import Foundation
import Testing
@testable import DynamoAPI

// How the server writes responses: the generated encoders (raw-item outputs, capacity doubles,
// maps in key order) and the enums persisted through Codable.

@Suite struct OutputEncodingTests {
    @Test func rawOutputCopiesStoredItemBytesUnchanged() {
        let stored = Array(#"{"pk":{"S":"a"},"n":{"N":"1.50"}}"#.utf8)
        let output = RawGetItemOutput(
            item: RawItem(stored), consumedCapacity: ConsumedCapacity(tableName: "t", capacityUnits: 0.5))
        #expect(
            String(decoding: output.jsonBytes, as: UTF8.self)
                == #"{"Item":{"pk":{"S":"a"},"n":{"N":"1.50"}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}"#)
        #expect(String(decoding: RawGetItemOutput().jsonBytes, as: UTF8.self) == "{}")
    }

    @Test func rawListsAndMapsOfItems() {
        let first = RawItem(Array(#"{"k":{"S":"1"}}"#.utf8))
        let second = RawItem(Array(#"{"k":{"S":"2"}}"#.utf8))
        let query = RawQueryOutput(items: [first, second], count: 2, scannedCount: 3)
        #expect(
            String(decoding: query.jsonBytes, as: UTF8.self)
                == #"{"Items":[{"k":{"S":"1"}},{"k":{"S":"2"}}],"Count":2,"ScannedCount":3}"#)
        let batch = RawBatchGetItemOutput(responses: ["b": [second], "a": [first]], unprocessedKeys: [:])
        #expect(
            String(decoding: batch.jsonBytes, as: UTF8.self)
                == #"{"Responses":{"a":[{"k":{"S":"1"}}],"b":[{"k":{"S":"2"}}]},"UnprocessedKeys":{}}"#)
        let transaction = RawTransactGetItemsOutput(responses: [RawItemResponse(item: first), RawItemResponse()])
        #expect(String(decoding: transaction.jsonBytes, as: UTF8.self) == #"{"Responses":[{"Item":{"k":{"S":"1"}}},{}]}"#)
    }

    /// DynamoDB prints capacity units and size estimates as Java doubles: `1.0`, not `1`.
    @Test func doublesKeepTheirFraction() {
        var capacity = ConsumedCapacity(tableName: "t", capacityUnits: 1)
        capacity.table = Capacity(capacityUnits: 1)
        capacity.globalSecondaryIndexes = ["z": Capacity(capacityUnits: 2), "a": Capacity(capacityUnits: 0.5)]
        #expect(
            String(decoding: capacity.jsonBytes, as: UTF8.self)
                == #"{"TableName":"t","CapacityUnits":1.0,"Table":{"CapacityUnits":1.0},"GlobalSecondaryIndexes":{"a":{"CapacityUnits":0.5},"z":{"CapacityUnits":2.0}}}"#
        )
        let metrics = ItemCollectionMetrics(itemCollectionKey: ["pk": .s("a")], sizeEstimateRangeGB: [0, 1])
        #expect(
            String(decoding: metrics.jsonBytes, as: UTF8.self)
                == #"{"ItemCollectionKey":{"pk":{"S":"a"}},"SizeEstimateRangeGB":[0.0,1.0]}"#)
    }

    /// Enums encode as their raw string, so state persisted with them reads the same as the
    /// plain strings stored before, and unknown values survive.
    @Test(arguments: [BillingMode.payPerRequest, .provisioned, BillingMode(rawValue: "SOMETHING_NEW")])
    func enumsAreCodableAsTheirRawValue(_ mode: BillingMode) throws {
        let data = try JSONEncoder().encode([mode])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(mode.rawValue)\"]")
        #expect(try JSONDecoder().decode([BillingMode].self, from: data) == [mode])
    }
}
