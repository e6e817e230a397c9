import DynamoAPI
import DynamoExpressions

/// One sort key of a fetch request: a property and a direction (Core Data's `NSSortDescriptor`).
///
/// Sorting by the range key of the table or queried index becomes DynamoDB's
/// `ScanIndexForward`; any other sort happens in memory after every result has been read.
///
/// ```swift
/// let request = try FetchRequest("Checkin", in: model, sortBy: [.descending("time")])
/// ```
public struct FetchSort: Sendable, Hashable {
    /// The property name.
    public var key: String
    /// Ascending (smallest first, absent values first) or descending.
    public var ascending: Bool

    /// Sorts by `key` in the given direction.
    public init(_ key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// Smallest first.
    public static func ascending(_ key: String) -> FetchSort { FetchSort(key, ascending: true) }

    /// Largest first.
    public static func descending(_ key: String) -> FetchSort { FetchSort(key, ascending: false) }
}

/// A sort resolved to a storage name.
struct StorageSort: Sendable, Hashable {
    var attribute: String
    var ascending: Bool

    /// Sorts items in place: by each sort key in turn (absent before present, values of
    /// different types by type name), stable for ties.
    static func sort(_ items: inout [Item], by sorts: [StorageSort]) {
        sort(&items, by: sorts) { $0 }
    }

    /// Sorts elements in place by the items `values` gives for them.
    static func sort<Element>(_ items: inout [Element], by sorts: [StorageSort], values: (Element) -> Item) {
        guard !sorts.isEmpty else { return }
        let indexed = items.enumerated().sorted { lhs, rhs in
            let left = values(lhs.element), right = values(rhs.element)
            for sort in sorts {
                let order = compare(left[sort.attribute], right[sort.attribute])
                if order != 0 { return sort.ascending ? order < 0 : order > 0 }
            }
            return lhs.offset < rhs.offset
        }
        items = indexed.map(\.element)
    }

    private static func compare(_ a: AttributeValue?, _ b: AttributeValue?) -> Int {
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case (let a?, let b?):
            if let order = Ordering.compare(a, b) { return order }
            if case .bool(let x) = a, case .bool(let y) = b { return x == y ? 0 : (x ? 1 : -1) }
            return a.typeDescriptor < b.typeDescriptor ? -1 : a.typeDescriptor == b.typeDescriptor ? 0 : 1
        }
    }
}
