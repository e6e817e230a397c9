import DynamoAPI
import DynamoTestSupport
import Foundation
import Testing
@testable import DynamoStore

/// How the store writes `Date` attributes: ISO 8601 at millisecond precision, rounded, so a
/// date at millisecond precision reads back equal (issue #21: `.123` was stored as `.122`).
struct DateStorageTests {
    @Test func millisecondsAreRoundedNotTruncated() throws {
        #expect(try Date(timeIntervalSince1970: 1_700_000_000.123).storedValue() == .s("2023-11-14T22:13:20.123Z"))
        #expect(try Date(timeIntervalSince1970: 1_700_000_007.477).storedValue() == .s("2023-11-14T22:13:27.477Z"))
    }

    @Test func seededRoundTripFrom1970To2096() throws {
        var random = SeededRandom(seed: 21)
        for _ in 0..<2000 {
            let milliseconds = Int64(random.next() % 4_039_372_800_000)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let stored = try #require(try date.storedValue())
            let back = try Date(storedValue: stored)
            #expect(back == date, "\(milliseconds) ms stored as \(stored)")
            if back != date { break }
        }
    }

    @Test func rowsWrittenElsewhereAreRead() throws {
        #expect(try Date(storedValue: .s("2023-11-14T22:13:20Z")) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(throws: StoreError.self) { try Date(storedValue: .s("soon")) }
    }
}
