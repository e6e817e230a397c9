@testable import DynamoServer
import Testing

/// The `/metrics` counters and the exposition writer, without a server.
@Suite struct ServerMetricsTests {
    @Test func requestsLandInTheirOperationAndBucket() {
        let metrics = ServerMetrics(operations: ["GetItem", "PutItem"])
        metrics.record(operation: "GetItem", nanoseconds: 50_000, errorType: nil) // <= 100 µs
        metrics.record(operation: "GetItem", nanoseconds: 100_001, errorType: nil) // <= 250 µs
        metrics.record(operation: "GetItem", nanoseconds: 20_000_000_000, errorType: "X") // +Inf
        metrics.record(operation: "admin /_localdynamo/clock", nanoseconds: 1, errorType: nil)
        let slots = metrics.usedSlots
        #expect(slots.map(\.name) == ["GetItem", "other"])
        let get = slots[0]
        #expect(get.requests.current == 3)
        #expect(get.buckets[0].current == 1 && get.buckets[1].current == 1 && get.buckets.last?.current == 1)
        #expect(get.nanoseconds.current == 20_000_150_001)
        #expect(metrics.errorCounts.map { "\($0.operation) \($0.type) \($0.count)" } == ["GetItem X 1"])
    }

    @Test func errorTypeIsTheShortNameOfTheBodysType() {
        let body = Array(#"{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"x"}"#.utf8)
        #expect(ServerMetrics.errorType(body: body, status: 400) == "ResourceNotFoundException")
        #expect(ServerMetrics.errorType(body: Array(#"{"__type":"Plain"}"#.utf8), status: 400) == "Plain")
        #expect(ServerMetrics.errorType(body: [], status: 413) == "HTTP 413")
    }

    @Test func expositionEscapesLabelsAndWritesNumbersAsPrometheusReadsThem() {
        var text = PrometheusText()
        text.family("m", type: "gauge", help: "a \\ b\nc")
        text.sample("m", [("table", "we\"ird\\\nname")], 2.5)
        text.sample("m", [], Double.infinity)
        text.sample("m", [], 3)
        #expect(
            text.text == """
                # HELP m a \\\\ b\\nc
                # TYPE m gauge
                m{table="we\\"ird\\\\\\nname"} 2.5
                m +Inf
                m 3

                """)
    }
}
