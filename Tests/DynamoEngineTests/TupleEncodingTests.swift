@testable import DynamoEngine
import Testing

@Suite("Tuple encoding of multi-attribute index keys")
struct TupleEncodingTests {
    /// Every byte string of length 0…2 over {0x00, 0x01, 0xFF}: the bytes escaping and
    /// termination are about.
    static let components: [[UInt8]] = {
        let alphabet: [UInt8] = [0x00, 0x01, 0xFF]
        var all: [[UInt8]] = [[]]
        for first in alphabet {
            all.append([first])
            for second in alphabet { all.append([first, second]) }
        }
        return all
    }()

    static func encode(_ tuple: [[UInt8]]) -> [UInt8] { tuple.flatMap { TupleEncoding.component($0) } }

    @Test("pairs sort by their first component, then their second, and split back exactly")
    func orderAndRoundTrip() {
        let tuples = Self.components.flatMap { first in Self.components.map { [first, $0] } }
        for left in tuples {
            #expect(TupleEncoding.split(Self.encode(left)) == left)
            for right in tuples {
                let expected = left.lexicographicallyPrecedes(right) { $0.lexicographicallyPrecedes($1) }
                #expect(
                    Self.encode(left).lexicographicallyPrecedes(Self.encode(right)) == expected,
                    "\(left) vs \(right)")
            }
        }
    }

    @Test("an open component is a byte prefix of every tuple whose component starts with it")
    func openPrefix() {
        for prefix in Self.components {
            let open = TupleEncoding.component(prefix, open: true)
            for component in Self.components {
                let encoded = Self.encode([component, [0x01]])
                #expect(encoded.starts(with: open) == component.starts(with: prefix), "\(prefix) in \(component)")
            }
        }
    }
}
