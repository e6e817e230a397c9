@testable import DynamoEngine
import Testing

/// Cached statements are found by `StatementKey`: two different SQL texts for one table must
/// never share a key.
@Suite("Statement keys")
struct StatementKeyTests {
    @Test("every Query statement shape has its own kind, clear of the item statements'")
    func queryKindsAreDistinct() {
        var seen: [UInt8: String] = [:]
        for lower in [nil, false, true] as [Bool?] {
            for upper in [nil, false, true] as [Bool?] {
                for afterStart in [false, true] {
                    for forward in [false, true] {
                        let kind = ItemStore.querySQLKind(lower: lower, upper: upper, afterStart: afterStart, forward: forward)
                        let shape = "\(String(describing: lower)) \(String(describing: upper)) \(afterStart) \(forward)"
                        #expect(seen[kind] == nil, "kind \(kind) of \(shape) is also \(seen[kind] ?? "")")
                        #expect(kind >= 16)
                        seen[kind] = shape
                    }
                }
            }
        }
        #expect(seen.count == 36)
    }

    @Test("index statement kinds are clear of the item and Query kinds, and keyed by index")
    func indexKindsAreDistinct() {
        var queryKinds: Set<UInt8> = []
        for lower in [nil, false, true] as [Bool?] {
            for upper in [nil, false, true] as [Bool?] {
                for afterStart in [false, true] {
                    for forward in [false, true] {
                        queryKinds.insert(ItemStore.querySQLKind(lower: lower, upper: upper, afterStart: afterStart, forward: forward))
                    }
                }
            }
        }
        let indexKinds = IndexStore.StatementKind.allCases.map(\.rawValue)
        #expect(Set(indexKinds).count == indexKinds.count)
        #expect(queryKinds.isDisjoint(with: indexKinds))
        #expect(indexKinds.allSatisfy { $0 > 3 && !(64...67).contains($0) })
        #expect(StatementKey(kind: 96, table: 1, index: 1) != StatementKey(kind: 96, table: 1, index: 2))
    }
}
