@testable import DynamoServer
import DynamoTestSupport
import NIOHTTP1
import Testing

/// gzip/deflate bodies, Accept-Encoding weighting and the Date header's format.
@Suite("Content coding")
struct ContentCodingTests {
    @Test("inflate undoes deflate for random bodies of every size", arguments: [Zlib.Format.gzip, .zlib])
    func roundTrip(format: Zlib.Format) throws {
        var random = SeededRandom(seed: 4096)
        for _ in 0..<200 {
            let count = random.int(0..<20_000)
            let repeating = random.chance(50)
            let body = (0..<count).map { index in repeating ? UInt8(index % 7) : UInt8(truncatingIfNeeded: random.next()) }
            let compressed = Zlib.deflate(body, format: format)
            #expect(try Zlib.inflate(compressed, format: format, limit: 1 << 20) == body)
        }
    }

    @Test("corrupt, truncated and empty streams are refused; the limit is on the inflated size")
    func refusals() throws {
        let body = Array(repeating: UInt8(ascii: "a"), count: 10_000)
        let gzip = Zlib.deflate(body, format: .gzip)
        #expect(throws: Zlib.InflateError.corrupt) { try Zlib.inflate([], format: .gzip, limit: 1 << 20) }
        #expect(throws: Zlib.InflateError.corrupt) { try Zlib.inflate(Array(gzip.dropLast()), format: .gzip, limit: 1 << 20) }
        #expect(throws: Zlib.InflateError.corrupt) { try Zlib.inflate(body, format: .zlib, limit: 1 << 20) }
        #expect(throws: Zlib.InflateError.tooLarge) { try Zlib.inflate(gzip, format: .gzip, limit: 9_999) }
        #expect(try Zlib.inflate(gzip, format: .gzip, limit: 10_000) == body)
        // Members concatenate; trailing bytes that start no member are ignored (as DynamoDB does).
        #expect(try Zlib.inflate(gzip + gzip + Array("junk".utf8), format: .gzip, limit: 1 << 20) == body + body)
        // A zlib stream is exactly one stream.
        let zlib = Zlib.deflate(body, format: .zlib)
        #expect(throws: Zlib.InflateError.corrupt) { try Zlib.inflate(zlib + zlib, format: .zlib, limit: 1 << 20) }
    }

    @Test(
        "Accept-Encoding weighting",
        arguments: [
            ("gzip, deflate", Zlib.Format.gzip), ("deflate, gzip", .zlib), ("*", .gzip), ("*, gzip;q=0.5", .zlib),
            ("deflate;q=0.5,gzip;q=0.x", .gzip), ("deflate;q=-0.5,gzip;q=0.2", .gzip),
        ] as [(String, Zlib.Format)])
    func weighting(header: String, expected: Zlib.Format) {
        #expect(ContentCoding.responseFormat(acceptEncoding: header) == expected)
    }

    @Test("codings that allow nothing", arguments: ["", "identity", "br", "gzip;q=0", "*;q=0", "\"gzip\"", "gzip br"])
    func nothing(header: String) {
        #expect(ContentCoding.responseFormat(acceptEncoding: header) == nil)
    }

    @Test(
        "spaces and tabs are trimmed from both ends, and nothing else",
        arguments: [
            ("gzip", "gzip"), ("  gzip\t", "gzip"), ("\t q = 1 ", "q = 1"), ("   ", ""), ("", ""),
            (" d\u{E9}flate\u{E9} ", "d\u{E9}flate\u{E9}"), ("\u{1F600}\t", "\u{1F600}"),
        ] as [(String, String)])
    func trimming(text: String, expected: String) {
        #expect(text.trimmingSpaces == expected)
    }

    @Test("a seeded random mix of spaces, tabs and text trims like the Character-wise definition")
    func trimmingRandom() {
        var random = SeededRandom(seed: 19)
        let pieces = [" ", "\t", "a", "Z", ";", "=", "\u{E9}", "\u{1F600}"]
        for _ in 0..<500 {
            let text = (0..<random.int(0..<12)).map { _ in pieces[random.int(0..<pieces.count)] }.joined()
            let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            let expected = String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
            #expect(text.trimmingSpaces == expected, "\(Array(text.utf8))")
        }
    }

    @Test("an answer is compressed only when it is at least 4 KiB and Accept-Encoding allows it")
    func compressedAnswers() throws {
        let large = HTTPReply(
            status: .ok, contentType: WireProtocol.amzJSON,
            body: Array(repeating: UInt8(ascii: "x"), count: ContentCoding.compressionThreshold))
        var small = large
        small.body.removeLast()
        #expect(small.compressed(acceptEncoding: "gzip").contentEncoding == nil)
        #expect(large.compressed(acceptEncoding: nil).contentEncoding == nil)
        #expect(large.compressed(acceptEncoding: " identity ").contentEncoding == nil)
        let gzip = large.compressed(acceptEncoding: "deflate;q=0.5, gzip")
        #expect(gzip.contentEncoding == "gzip")
        #expect(try Zlib.inflate(gzip.body, format: .gzip, limit: 1 << 20) == large.body)
        #expect(gzip.compressed(acceptEncoding: "deflate").body == gzip.body)
        #expect(large.compressed(acceptEncoding: "deflate").contentEncoding == "deflate")
    }

    @Test(
        "Date header format",
        arguments: [
            (0.0, "Thu, 01 Jan 1970 00:00:00 GMT"), (951_782_400.5, "Tue, 29 Feb 2000 00:00:00 GMT"),
            (1_795_609_500, "Wed, 25 Nov 2026 12:25:00 GMT"), (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
        ] as [(Double, String)])
    func dates(seconds: Double, expected: String) {
        #expect(HTTPDate.format(epochSeconds: seconds) == expected)
    }
}
