import Testing
@testable import DynamoClient

/// CRC-32 against zlib's values, and the `x-amz-crc32` check of a response.
struct ResponseChecksumTests {
    @Test(arguments: [
        ("", UInt32(0)),
        ("123456789", 0xCBF4_3926),
        ("The quick brown fox jumps over the lazy dog", 0x414F_A339),
    ])
    func crc32Vectors(text: String, crc: UInt32) {
        #expect(ResponseChecksum.crc32(Array(text.utf8)) == crc)
    }

    @Test func crc32Verification() {
        let body = Array("{}".utf8)
        let crc = ResponseChecksum.crc32(body)
        #expect(ResponseChecksum.verify(HTTPResponse(status: 200, headers: ["x-amz-crc32": "\(crc)"], body: body)))
        #expect(!ResponseChecksum.verify(HTTPResponse(status: 200, headers: ["x-amz-crc32": "\(crc &+ 1)"], body: body)))
        #expect(ResponseChecksum.verify(HTTPResponse(status: 200, body: body)))
    }
}
