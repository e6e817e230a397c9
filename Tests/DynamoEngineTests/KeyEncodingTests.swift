import DynamoAPI
@testable import DynamoEngine
import Testing

@Suite("Key encoding")
struct KeyEncodingTests {
    @Test("string and binary keys sort by unsigned bytes")
    func bytesOrder() {
        let strings = ["", "A", "Z", "a", "aa", "b", "é", "😀"]
        let encoded = strings.map { KeyEncoding.encode(.s($0))! }
        for (index, bytes) in encoded.enumerated().dropFirst() {
            #expect(encoded[index - 1].lexicographicallyPrecedes(bytes))
        }
        #expect(KeyEncoding.encode(.b([0x00]))!.lexicographicallyPrecedes(KeyEncoding.encode(.b([0xFF]))!))
    }

    @Test("number keys sort by value")
    func numberOrder() throws {
        let texts = ["-1E+125", "-100", "-1.5", "-1", "-0.001", "0", "1E-130", "0.5", "1", "1.000001", "2", "10", "1E+125"]
        let numbers = try texts.map { try DynamoNumber(parsing: $0) }
        for first in numbers.indices {
            for second in numbers.indices {
                let a = KeyEncoding.encode(.n(numbers[first]))!
                let b = KeyEncoding.encode(.n(numbers[second]))!
                #expect(a.lexicographicallyPrecedes(b) == (first < second), "\(texts[first]) vs \(texts[second])")
            }
        }
    }

    @Test("decoding a stored key gives the value back")
    func decodeRoundTrip() throws {
        let values: [(AttributeValue, KeyScalarType)] = [
            (.s("hello"), .string), (.b([1, 2, 3]), .binary), (.n(try DynamoNumber(parsing: "-12.5")), .number),
        ]
        for (value, type) in values {
            #expect(KeyEncoding.decode(KeyEncoding.encode(value)!, as: type) == value)
        }
    }

    @Test("the partition hash is stable and spreads keys")
    func partitionHash() {
        let first = KeyEncoding.partitionHash(Array("user#1".utf8), type: .string)
        #expect(first == KeyEncoding.partitionHash(Array("user#1".utf8), type: .string))
        let hashes = (0..<1000).map { KeyEncoding.partitionHash(Array("key\($0)".utf8), type: .string) }
        #expect(Set(hashes).count == 1000)
        // Sequential keys must not come out in key order (a scan is not a sorted walk).
        #expect(hashes != hashes.sorted())
        let negative = hashes.filter { $0 < 0 }.count
        #expect((350...650).contains(negative))
    }
}
