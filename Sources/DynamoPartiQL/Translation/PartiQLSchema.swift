import DynamoAPI
import DynamoExpressions

/// One key attribute of the table (or index) a statement reads or writes.
package struct PartiQLKey: Sendable, Hashable {
    package var name: String
    /// `S`, `N` or `B`.
    package var type: String

    package init(name: String, type: String) {
        self.name = name
        self.type = type
    }
}

/// The key schema a statement is translated against.
package struct PartiQLSchema: Sendable, Hashable {
    package var partitionKey: PartiQLKey
    package var sortKey: PartiQLKey?

    package init(partitionKey: PartiQLKey, sortKey: PartiQLKey? = nil) {
        self.partitionKey = partitionKey
        self.sortKey = sortKey
    }

    /// The partition key, then the sort key if there is one.
    package var keys: [PartiQLKey] { [partitionKey] + (sortKey.map { [$0] } ?? []) }
}
