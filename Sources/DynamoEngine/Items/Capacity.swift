/// DynamoDB's capacity unit arithmetic: 4 KB read units (halved when eventually consistent),
/// 1 KB write units, at least one unit per item.
package enum Capacity {
    package static func readUnits(size: Int, consistent: Bool) -> Double {
        let units = Double(max(1, (size + 4095) / 4096))
        return consistent ? units : units / 2
    }

    package static func writeUnits(size: Int) -> Double {
        Double(max(1, (size + 1023) / 1024))
    }
}

/// The capacity one operation consumed on one table: on the table itself and on each of its
/// secondary indexes, as `ReturnConsumedCapacity=INDEXES` reports it.
package struct ConsumedUnits: Sendable, Equatable {
    /// Units consumed on the table.
    package var table: Double = 0
    /// Units consumed per global secondary index (only indexes that were touched).
    package var globalIndexes: [String: Double] = [:]
    /// Units consumed per local secondary index (only indexes that were touched).
    package var localIndexes: [String: Double] = [:]
    /// Bytes replicated per vector index (`VectorWriteRequestBytes`; only indexes whose entry
    /// changed). Metered apart from capacity units: not part of ``total``, and the same in a
    /// transaction.
    package var vectorIndexes: [String: Double] = [:]
    /// The kind of units a transaction's answer names besides `CapacityUnits` under `INDEXES`
    /// (`WriteCapacityUnits` for TransactWriteItems, `ReadCapacityUnits` for TransactGetItems and
    /// a TransactWriteItems replayed from its token); `nil` for every other operation, whose
    /// answers carry `CapacityUnits` alone.
    package var reportedAs: Kind?

    /// A kind of capacity unit.
    package enum Kind: Sendable, Equatable {
        case read
        case write
    }

    package init(table: Double = 0) { self.table = table }

    /// Everything consumed: the table and every index (`CapacityUnits` in the response).
    package var total: Double {
        table + globalIndexes.values.reduce(0, +) + localIndexes.values.reduce(0, +)
    }

    /// Adds `units` consumed on `index`.
    mutating func add(_ units: Double, on index: IndexDefinition) {
        guard units > 0 else { return }
        if index.isGlobal { globalIndexes[index.name, default: 0] += units } else { localIndexes[index.name, default: 0] += units }
    }

    /// Adds another operation's consumption on the same table.
    package mutating func add(_ other: ConsumedUnits) {
        table += other.table
        globalIndexes.merge(other.globalIndexes, uniquingKeysWith: +)
        localIndexes.merge(other.localIndexes, uniquingKeysWith: +)
        vectorIndexes.merge(other.vectorIndexes, uniquingKeysWith: +)
        reportedAs = reportedAs ?? other.reportedAs
    }

    /// Twice these units: what a transaction consumes for the same work.
    var transactional: ConsumedUnits {
        var doubled = ConsumedUnits(table: table * 2)
        doubled.globalIndexes = globalIndexes.mapValues { $0 * 2 }
        doubled.localIndexes = localIndexes.mapValues { $0 * 2 }
        doubled.vectorIndexes = vectorIndexes
        doubled.reportedAs = reportedAs
        return doubled
    }
}
