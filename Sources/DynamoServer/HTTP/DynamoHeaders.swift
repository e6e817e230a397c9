import NIOHTTP1

/// The headers of a request, in the order received, looked up case-insensitively.
///
/// A thin wrapper over NIO's `HTTPHeaders` (copy-on-write, so handing it to a dispatcher costs
/// nothing) that keeps NIO out of the dispatcher's and the tests' vocabulary.
package struct DynamoHeaders: Sendable, Sequence {
    var storage: HTTPHeaders

    init(_ storage: HTTPHeaders) {
        self.storage = storage
    }

    /// Headers from name/value pairs, in order.
    package init(_ pairs: [(name: String, value: String)] = []) {
        self.storage = HTTPHeaders(pairs.map { ($0.name, $0.value) })
    }

    /// The first value of the header `name` (case-insensitive), or `nil`.
    package subscript(name: String) -> String? {
        storage.first(name: name)
    }

    /// Every value of the header `name` (case-insensitive), in order.
    package func values(named name: String) -> [String] {
        storage[name]
    }

    /// Whether a header `name` is present.
    package func contains(_ name: String) -> Bool {
        storage.contains(name: name)
    }

    /// How many header lines there are.
    package var count: Int { storage.count }

    package func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        storage.makeIterator()
    }
}
