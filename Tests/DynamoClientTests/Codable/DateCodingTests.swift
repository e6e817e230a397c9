import DynamoAPI
import DynamoTestSupport
import Foundation
import Testing
@testable import DynamoClient

/// Dates (and every other supported type) read back as written, under every date strategy.
struct DateCodingTests {
    struct Nested: Codable, Equatable {
        var label: String
        var when: Date
    }

    struct Sample: Codable, Equatable {
        var date: Date
        var optionalDate: Date?
        var dates: [Date]
        var nested: Nested
        var text: String
        var integer: Int
        var int64: Int64
        var small: UInt8
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var unsigned: UInt
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var double: Double
        var float: Float
        var flag: Bool
        var data: Data
        var uuid: UUID
        var url: URL
        var decimal: Decimal
        var strings: DynamoSet<String>
        var numbers: DynamoSet<Int>
        var blobs: DynamoSet<Data>
        var list: [Int]
        var map: [String: Double]
        var missing: String?
    }

    static let strategies: [ItemEncoder.DateStrategy] = [.iso8601, .secondsSince1970, .millisecondsSince1970]
    /// 2096-12-31T23:59:59.999Z in milliseconds since 1970.
    static let lastMillisecond: Int64 = 4_039_372_799_999

    static func date(_ random: inout SeededRandom) -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: 0...lastMillisecond, using: &random)) / 1000)
    }

    static func sample(_ random: inout SeededRandom) -> Sample {
        Sample(
            date: date(&random), optionalDate: Bool.random(using: &random) ? date(&random) : nil,
            dates: (0..<Int.random(in: 0...3, using: &random)).map { _ in date(&random) },
            nested: Nested(label: "n\(random.next() % 100)", when: date(&random)),
            text: String(random.next(), radix: 36), integer: Int.random(in: Int.min...Int.max, using: &random),
            int64: Int64.random(in: Int64.min...Int64.max, using: &random), small: UInt8.random(in: 0...255, using: &random),
            int8: Int8.random(in: .min ... .max, using: &random), int16: Int16.random(in: .min ... .max, using: &random),
            int32: Int32.random(in: .min ... .max, using: &random), unsigned: UInt.random(in: 0 ... .max, using: &random),
            uint16: UInt16.random(in: 0 ... .max, using: &random), uint32: UInt32.random(in: 0 ... .max, using: &random),
            uint64: UInt64.random(in: 0 ... .max, using: &random),
            double: Double.random(in: -1e12...1e12, using: &random), float: Float.random(in: -1e6...1e6, using: &random),
            flag: Bool.random(using: &random),
            data: Data((0..<Int.random(in: 1...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
            uuid: UUID(), url: URL(string: "https://example.com/\(random.next() % 1000)?q=1")!,
            decimal: Decimal(Int64.random(in: -1_000_000_000...1_000_000_000, using: &random)) / 100,
            strings: ["a\(random.next() % 10)", "b"], numbers: [Int.random(in: -99...99, using: &random), 100],
            blobs: [Data([UInt8.random(in: 0...255, using: &random)]), Data([1, 2, 3])],
            list: [1, Int.random(in: -5...5, using: &random)], map: ["x": Double.random(in: 0...1, using: &random)],
            missing: nil)
    }

    @Test(arguments: strategies)
    func seededRoundTripFrom1970To2096(strategy: ItemEncoder.DateStrategy) throws {
        var random = SeededRandom(seed: 0x5EED_DA7E)
        var encoder = ItemEncoder()
        encoder.dateStrategy = strategy
        var decoder = ItemDecoder()
        decoder.dateStrategy = strategy
        for _ in 0..<400 {
            let sample = Self.sample(&random)
            let item = try encoder.encode(sample)
            #expect(item["missing"] == nil)
            let back = try decoder.decode(Sample.self, from: item)
            #expect(back == sample, "\(strategy): \(sample.date.timeIntervalSince1970) stored as \(item["date"]!)")
            if back != sample { break }
        }
    }

    @Test func isoTextRoundsToTheNearestMillisecond() throws {
        let encoder = ItemEncoder()
        #expect(try encoder.encodeAttribute(Date(timeIntervalSince1970: 1_700_000_000.123)) == .s("2023-11-14T22:13:20.123Z"))
        #expect(try encoder.encodeAttribute(Date(timeIntervalSince1970: 1_700_000_007.477)) == .s("2023-11-14T22:13:27.477Z"))
        #expect(try encoder.encodeAttribute(Date(timeIntervalSince1970: 0.0004)) == .s("1970-01-01T00:00:00.000Z"))
        #expect(try encoder.encodeAttribute(Date(timeIntervalSince1970: 59.9996)) == .s("1970-01-01T00:01:00.000Z"))
        #expect(try encoder.encodeAttribute(Date(timeIntervalSince1970: -0.001)) == .s("1969-12-31T23:59:59.999Z"))
        #expect(try encoder.encodeAttribute(Date(timeIntervalSince1970: 951_782_400)) == .s("2000-02-29T00:00:00.000Z"))
    }

    /// The text agrees with Foundation's formatter on the calendar fields and sorts as the dates do.
    @Test func isoTextAgreesWithFoundationAndSorts() throws {
        var random = SeededRandom(seed: 42)
        let foundation = Date.ISO8601FormatStyle()
        var previous: (Date, String)?
        for _ in 0..<800 {
            let whole = Date(timeIntervalSince1970: Double(Int64.random(in: 0...Self.lastMillisecond / 1000, using: &random)))
            let text = ISO8601Milliseconds.string(from: whole)
            #expect(text == String(whole.formatted(foundation).dropLast()) + ".000Z")
            if let (date, other) = previous { #expect((date < whole) == (other < text)) }
            previous = (whole, text)
        }
    }

    @Test func numbersAreReadPerStrategy() throws {
        var milliseconds = ItemDecoder()
        milliseconds.dateStrategy = .millisecondsSince1970
        let number = AttributeValue.n(DynamoNumber(1_700_000_000_123))
        #expect(try milliseconds.decode(Date.self, fromAttribute: number) == Date(timeIntervalSince1970: 1_700_000_000.123))
        // The default reads seconds, as before; ISO text is read under every strategy.
        #expect(
            try ItemDecoder().decode(Date.self, fromAttribute: .n(DynamoNumber(1_700_000_000)))
                == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(
            try milliseconds.decode(Date.self, fromAttribute: .s("2023-11-14T22:13:20.123Z"))
                == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(
            try ItemDecoder().decode(Date.self, fromAttribute: .s("2023-11-14T23:13:20.5+01:00"))
                == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(
            try ItemDecoder().decode(Date.self, fromAttribute: .s("2023-11-14T22:13:20Z"))
                == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(throws: DecodingError.self) { try ItemDecoder().decode(Date.self, fromAttribute: .s("yesterday")) }
    }
}
