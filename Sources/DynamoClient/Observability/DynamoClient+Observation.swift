import DynamoAPI
import Logging

extension DynamoClient {
    /// Reports a finished call to the logger (debug) and the observer.
    ///
    /// Nothing is built when neither listens (no observer, log level above debug): most calls
    /// of a busy client end here.
    func report(target: String, attempts: Int, duration: Duration, response: JSONValue?, failure: (any Error)?) {
        guard observer != nil || logger.logLevel <= .debug else { return }
        let operation = target.split(separator: ".").last.map(String.init) ?? target
        let report = OperationReport(
            operation: operation, attempts: attempts, duration: duration,
            consumedCapacity: Self.consumedCapacity(in: response), errorCode: failure.map(Self.errorCode))
        var metadata: Logger.Metadata = [
            "operation": .string(operation), "attempts": .stringConvertible(attempts),
            "latencyMs": .stringConvertible(Self.milliseconds(duration)),
        ]
        if let units = report.totalCapacityUnits { metadata["consumedCapacity"] = .stringConvertible(units) }
        if let code = report.errorCode { metadata["errorCode"] = .string(code) }
        logger.debug("DynamoClient operation", metadata: metadata)
        observer?.operationDidFinish(report)
    }

    /// The `ConsumedCapacity` member of a response: one object (single-item operations) or a
    /// list (batches, transactions, PartiQL batches).
    static func consumedCapacity(in response: JSONValue?) -> [ConsumedCapacity] {
        switch response?.objectValue?["ConsumedCapacity"] {
        case .array(let elements)?: elements.compactMap { try? ConsumedCapacity(json: $0) }
        case let single?: [try? ConsumedCapacity(json: single)].compactMap { $0 }
        case nil: []
        }
    }

    /// A duration in milliseconds, three decimals.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + Double(attoseconds) / 1e15 * 1000).rounded() / 1000
    }
}
