import AWSSigV4
import DynamoEngine
import Foundation
import Logging
import OutgoingHTTP
import Synchronization

/// Sends Kinesis streaming destinations' records with `PutRecords` (Kinesis' JSON 1.1
/// protocol, `X-Amz-Target: Kinesis_20131202.PutRecords`, SigV4 service `kinesis`) from one
/// delivery thread of its own: a write only appends to the queue.
///
/// Records leave in the order they were queued, at most 500 (and 4 MiB) a call, consecutive
/// records of one stream together. A call that fails (no connection, an error answer, or some
/// records refused) is retried with backoff (0.1 s doubling to 5 s) from its first refused
/// record on, so an item's records keep their order (a record after a refused one may arrive
/// twice: Kinesis delivery is at least once). Records for a stream that no longer exists are
/// dropped, with a log line.
package final class KinesisPutRecordsSink: KinesisRecordSink {
    private let endpoint: String
    private let credentials: AWSCredentials
    private let logger: Logger
    private let pending = Mutex<(records: [KinesisChangeRecord], draining: Bool)>(([], false))
    private let queue = DispatchQueue(label: "localdynamo.kinesis-delivery", qos: .utility)

    package init(settings: NeighbourSettings, endpoint: String, logger: Logger) {
        self.endpoint = endpoint
        credentials = settings.credentials ?? NeighbourSettings.testCredentials
        self.logger = logger
    }

    package func streamIsWritable(streamARN: String, region: String) -> Bool {
        let body = (try? JSONSerialization.data(withJSONObject: ["StreamARN": streamARN])).map(Array.init) ?? []
        switch call("DescribeStreamSummary", body: body, region: region) {
        case .success(let response) where response.status == 200:
            return true
        case .success(let response):
            logger.warning(
                "Kinesis destination refused",
                metadata: [
                    "stream": "\(streamARN)", "error": "\(NeighbourCall.error(of: response))",
                ])
            return false
        case .failure(let failure):
            logger.warning("Kinesis unreachable", metadata: ["endpoint": "\(endpoint)", "error": "\(failure)"])
            return false
        }
    }

    package func enqueue(_ records: [KinesisChangeRecord]) {
        let start = pending.withLock { state -> Bool in
            state.records += records
            defer { state.draining = true }
            return !state.draining
        }
        if start { queue.async { [self] in drain() } }
    }

    /// Sends until the queue is empty.
    private func drain() {
        while true {
            let batch = pending.withLock { state -> [KinesisChangeRecord] in
                guard let first = state.records.first else {
                    state.draining = false
                    return []
                }
                var size = 0
                let batch = state.records.prefix { record in
                    size += record.data.count + record.partitionKey.utf8.count
                    return record.streamARN == first.streamARN && size <= 4 * 1024 * 1024
                }.prefix(500)
                return Array(batch.isEmpty ? [first] : batch)
            }
            guard !batch.isEmpty else { return }
            deliver(batch)
            pending.withLock { $0.records.removeFirst(batch.count) }
        }
    }

    /// Puts one batch of one stream, retrying until every record is in (or the stream is gone).
    private func deliver(_ batch: [KinesisChangeRecord]) {
        var remaining = batch[...]
        var delay = 0.1
        while let first = remaining.first {
            switch put(Array(remaining)) {
            case .delivered(let refusedFrom):
                guard let refusedFrom else { return }
                remaining = remaining.dropFirst(refusedFrom)
                logger.debug("Kinesis refused records; retrying", metadata: ["stream": "\(first.streamARN)"])
            case .streamMissing(let message):
                logger.error(
                    "Kinesis stream not found; records dropped",
                    metadata: [
                        "stream": "\(first.streamARN)", "records": "\(remaining.count)", "error": "\(message)",
                    ])
                return
            case .failed(let message):
                logger.warning(
                    "Kinesis PutRecords failed; retrying",
                    metadata: [
                        "stream": "\(first.streamARN)", "error": "\(message)", "retryIn": "\(delay)",
                    ])
            }
            Thread.sleep(forTimeInterval: delay)
            delay = min(5, delay * 2)
        }
    }

    private enum Outcome {
        /// Sent; the position of the first refused record, if any.
        case delivered(refusedFrom: Int?)
        case streamMissing(String)
        case failed(String)
    }

    private func put(_ records: [KinesisChangeRecord]) -> Outcome {
        let entries = records.map { record -> [String: String] in
            ["Data": Data(record.data).base64EncodedString(), "PartitionKey": record.partitionKey]
        }
        let document: [String: Any] = ["StreamARN": records[0].streamARN, "Records": entries]
        guard let body = try? JSONSerialization.data(withJSONObject: document) else { return .failed("unencodable") }
        switch call("PutRecords", body: Array(body), region: records[0].region) {
        case .failure(let failure):
            return .failed("\(failure)")
        case .success(let response) where response.status == 200:
            guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                let results = object["Records"] as? [[String: Any]]
            else { return .failed("unreadable answer") }
            let refused = results.firstIndex { $0["ErrorCode"] != nil }
            return .delivered(refusedFrom: refused)
        case .success(let response):
            let (code, message) = NeighbourCall.error(of: response)
            return code == "ResourceNotFoundException" ? .streamMissing(message) : .failed("\(code): \(message)")
        }
    }

    private func call(_ operation: String, body: [UInt8], region: String) -> Result<OutgoingResponse, OutgoingHTTPError> {
        let request = SigV4Request(
            method: "POST", url: endpoint + "/",
            headers: [
                ("Content-Type", "application/x-amz-json-1.1"), ("X-Amz-Target", "Kinesis_20131202.\(operation)"),
            ], body: body)
        return NeighbourCall(service: "kinesis", region: region, credentials: credentials).send(request)
    }
}
