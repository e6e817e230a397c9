import DynamoAPI
import Foundation
import Testing

@testable import AWSSigV4

/// Signing with a cache of derived keys (what `DynamoClient` does per request) and the byte-level
/// fast path of header-value trimming give exactly what the uncached, character-level forms give.
struct SigV4SigningCacheTests {
    @Test(arguments: SigV4SuiteTests.cases)
    func cachedKeySignsAsTheSuitePublishes(_ vector: SigV4SuiteTests.Case) {
        var credentials = SigV4SuiteTests.credentials
        credentials.sessionToken = vector.token
        let request = SigV4Request(
            method: vector.method, url: "https://example.amazonaws.com" + vector.target,
            headers: [("Host", "example.amazonaws.com")] + vector.headers.map { (name: $0.0, value: $0.1) },
            body: Array(vector.body.utf8))
        let keys = SigV4SigningKeyCache(limit: 4)
        let plain = SigV4SuiteTests.signer.sign(request, credentials: credentials, date: SigV4SuiteTests.date)
        // Twice: the first derives and stores the key, the second reads it from the cache.
        for _ in 0..<2 {
            let cached = SigV4SuiteTests.signer.sign(request, credentials: credentials, date: SigV4SuiteTests.date, keys: keys)
            #expect(cached.headerValue("Authorization") == plain.headerValue("Authorization"))
            #expect(cached.headerValue("Authorization")?.hasSuffix("Signature=\(vector.signature)") == true)
        }
        #expect(keys.count == 1)
        // With the URL split beforehand (a client splits its endpoint once): the same signature.
        let split = SigV4SuiteTests.signer.sign(
            request, credentials: credentials, date: SigV4SuiteTests.date, keys: keys, urlParts: URLParts(request.url))
        #expect(split.headerValue("Authorization")?.hasSuffix("Signature=\(vector.signature)") == true)
    }

    @Test func cachedKeyFollowsTheDayAndTheSecret() {
        let keys = SigV4SigningKeyCache(limit: 8)
        let request = SigV4Request(method: "POST", url: "http://127.0.0.1:8000/", body: Array("{}".utf8))
        let other = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "another-secret")
        let nextDay = SigV4SuiteTests.date.addingTimeInterval(86_400)
        for (credentials, date) in [
            (SigV4SuiteTests.credentials, SigV4SuiteTests.date), (other, SigV4SuiteTests.date),
            (SigV4SuiteTests.credentials, nextDay),
        ] {
            let cached = SigV4SuiteTests.signer.sign(request, credentials: credentials, date: date, keys: keys)
            let plain = SigV4SuiteTests.signer.sign(request, credentials: credentials, date: date)
            #expect(cached.headerValue("Authorization") == plain.headerValue("Authorization"))
        }
        #expect(keys.count == 3)
    }

    @Test(arguments: ["", "a", " a", "a ", "a  b", "a b", "a\tb", "\"a   b   c\"", "x \u{301}y", " \u{301}", "a\r\nb"])
    func trimAllExamples(_ value: String) {
        #expect(SigV4Signer.trimAll(value) == Self.referenceTrim(value))
    }

    /// Seeded random header values over spaces, controls, ASCII, accented letters and combining
    /// marks: the fast path never changes what the character-level split returns.
    @Test func trimAllMatchesTheCharacterSplitOnRandomValues() {
        var generator = SplitMix64(seed: 0x5167_4A11)
        let alphabet: [String] = [" ", " ", "\t", "\n", "\r", "\r\n", "a", "b", "é", "\u{301}", "-", "\""]
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let value = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            #expect(SigV4Signer.trimAll(value) == Self.referenceTrim(value), "value \(Array(value.unicodeScalars))")
        }
    }

    /// The specification's trimming, character by character.
    static func referenceTrim(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .joined(separator: " ")
    }
}
