import DynamoAPI
@testable import DynamoEngine
import Testing

@Suite("Capacity and item collections")
struct CapacityTests {
    @Test(
        "read and write units round up per 4 KB and 1 KB, with a floor of one unit",
        arguments: [
            (0, 1.0, 0.5, 1.0), (1, 1.0, 0.5, 1.0), (1024, 1.0, 0.5, 1.0), (1025, 1.0, 0.5, 2.0),
            (4096, 1.0, 0.5, 4.0), (4097, 2.0, 1.0, 5.0), (400 * 1024, 100.0, 50.0, 400.0),
        ] as [(Int, Double, Double, Double)])
    func units(size: Int, consistent: Double, eventual: Double, write: Double) {
        #expect(Capacity.readUnits(size: size, consistent: true) == consistent)
        #expect(Capacity.readUnits(size: size, consistent: false) == eventual)
        #expect(Capacity.writeUnits(size: size) == write)
    }

    @Test("transactions double the table's and every index's units")
    func transactional() {
        let global = IndexDefinition(
            name: "g", partitionKey: KeyAttribute(name: "x", type: .string), sortKey: nil,
            projectionType: .all, isGlobal: true)
        let local = IndexDefinition(
            name: "l", partitionKey: KeyAttribute(name: "pk", type: .string),
            sortKey: KeyAttribute(name: "y", type: .string), projectionType: .all)
        var units = ConsumedUnits(table: 3)
        units.add(1, on: global)
        units.add(2, on: local)
        units.add(0, on: global)
        #expect(units.total == 6)
        let doubled = units.transactional
        #expect(doubled.total == 12)
        #expect(doubled.globalIndexes == ["g": 2] && doubled.localIndexes == ["l": 4] && doubled.table == 6)
    }

    @Test("an item collection's size estimate brackets it by whole gigabytes")
    func sizeEstimate() {
        let gigabyte = Int64(1 << 30)
        for (size, lower) in [
            (Int64(0), 0.0), (gigabyte - 1, 0.0), (gigabyte, 1.0), (gigabyte * 3 / 2, 1.0),
            (gigabyte * 10, 10.0),
        ] {
            let range = ItemCollectionMetric(key: ["pk": .s("a")], sizeBytes: size).sizeEstimateRangeGB
            #expect(range.lower == lower && range.upper == lower + 1, "size \(size)")
        }
    }
}
