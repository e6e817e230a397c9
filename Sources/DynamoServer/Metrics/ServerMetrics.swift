import Synchronization

/// The server's counters for `/metrics`: requests and their latency per operation, errors by
/// type, connections.
///
/// Recording is lock-free on the path every request takes: the operation's slot is found in an
/// immutable table, then three relaxed atomic adds (count, latency bucket, latency sum). Only
/// error answers take a lock (errors by operation and type are an open set). Table sizes, stream
/// records and TTL deletions are read from the engine when scraped, not counted per request.
package final class ServerMetrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds (`+Inf` is implicit).
    package static let bucketBounds: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]
    /// Bucket bounds in nanoseconds, for comparing without floating point.
    private static let bucketNanos: [Int] = bucketBounds.map { Int($0 * 1e9) }

    /// One relaxed atomic counter (a class, so counters can live in arrays).
    package final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        package init() {}
        @inline(__always) package func add(_ amount: Int) { value.wrappingAdd(amount, ordering: .relaxed) }
        package var current: Int { value.load(ordering: .relaxed) }
    }

    /// One operation's counters.
    package final class OperationSlot: Sendable {
        package let name: String
        package let requests = Counter()
        package let nanoseconds = Counter()
        /// Non-cumulative counts per bucket; the last one is `+Inf`.
        package let buckets: [Counter]

        init(name: String) {
            self.name = name
            buckets = (0...ServerMetrics.bucketBounds.count).map { _ in Counter() }
        }
    }

    /// The operations with their own slot (the rest share `other`), by wire name.
    private let slots: [String: OperationSlot]
    /// Requests whose operation is not a known one (unknown targets, admin calls, `/metrics`).
    package let other = OperationSlot(name: "other")
    private let errors = Mutex<[ErrorKey: Int]>([:])
    /// Connections open now.
    package let openConnections = Counter()
    /// Connections accepted since start.
    package let acceptedConnections = Counter()

    struct ErrorKey: Hashable {
        var operation: String
        var type: String
    }

    /// - Parameter operations: the operation names that get their own series.
    package init(operations: some Sequence<String>) {
        slots = Dictionary(operations.map { ($0, OperationSlot(name: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every slot that has seen a request, ordered by name (`other` last).
    package var usedSlots: [OperationSlot] {
        slots.values.filter { $0.requests.current > 0 }.sorted { $0.name < $1.name }
            + (other.requests.current > 0 ? [other] : [])
    }

    /// Errors answered, by operation and error type, ordered.
    package var errorCounts: [(operation: String, type: String, count: Int)] {
        errors.withLock { $0.map { ($0.key.operation, $0.key.type, $0.value) } }
            .sorted { ($0.operation, $0.type) < ($1.operation, $1.type) }
    }

    /// Records one answered request.
    /// - Parameters:
    ///   - operation: the operation (any other label counts as `other`).
    ///   - nanoseconds: from the request's head to its answer.
    ///   - errorType: the error's `__type` short name for an error answer, `nil` for a success.
    @inline(__always)
    package func record(operation: String, nanoseconds: Int64, errorType: String?) {
        let slot = slots[operation] ?? other
        slot.requests.add(1)
        let nanos = Int(max(0, nanoseconds))
        slot.nanoseconds.add(nanos)
        var bucket = 0
        let bounds = Self.bucketNanos
        while bucket < bounds.count, nanos > bounds[bucket] { bucket += 1 }
        slot.buckets[bucket].add(1)
        if let errorType {
            let key = ErrorKey(operation: slot.name, type: errorType)
            errors.withLock { $0[key, default: 0] += 1 }
        }
    }

    /// The short error type of a DynamoDB error body (`{"__type":"com.amazonaws…#ValidationException", …}`),
    /// found without parsing the JSON; `HTTP <status>` when the body has none.
    package static func errorType(body: [UInt8], status: Int) -> String {
        let marker = Array(#""__type":""#.utf8)
        guard let start = body.firstRange(of: marker)?.upperBound,
            let end = body[start...].firstIndex(of: UInt8(ascii: "\""))
        else { return "HTTP \(status)" }
        let full = body[start..<end]
        let short = full.lastIndex(of: UInt8(ascii: "#")).map { full[full.index(after: $0)...] } ?? full
        return String(decoding: short, as: UTF8.self)
    }
}

extension ServerMetrics {
    /// A connection was accepted.
    @inline(__always) package func connectionOpened() {
        openConnections.add(1)
        acceptedConnections.add(1)
    }

    /// A connection closed.
    @inline(__always) package func connectionClosed() { openConnections.add(-1) }
}
