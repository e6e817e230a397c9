import Foundation
import Testing
@testable import AWSSigV4

/// The S3 examples of AWS's "Signature calculations for the Authorization header: transferring
/// payload in a single chunk" (bucket `examplebucket`, 2013-05-24T00:00:00Z, us-east-1): the
/// signed payload hash in `x-amz-content-sha256` and the key encoded once in the canonical URI.
struct SigV4S3Tests {
    static let credentials = AWSCredentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    static let date = Date(timeIntervalSince1970: 1_369_353_600)
    static let signer = SigV4Signer(service: "s3", region: "us-east-1")

    @Test func getObjectWithRange() {
        let request = SigV4Request(
            method: "GET", url: "https://examplebucket.s3.amazonaws.com/test.txt",
            headers: [("Range", "bytes=0-9")])
        let signed = Self.signer.signS3(request, credentials: Self.credentials, date: Self.date)
        #expect(signed.headerValue("x-amz-content-sha256") == SigV4Payload.hash([]))
        #expect(
            signed.headerValue("authorization") == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func putObjectEncodesTheKeyOnce() {
        let request = SigV4Request(
            method: "PUT", url: "https://examplebucket.s3.amazonaws.com/test%24file.text",
            headers: [("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY")],
            body: Array("Welcome to Amazon S3.".utf8))
        let signed = Self.signer.signS3(request, credentials: Self.credentials, date: Self.date)
        #expect(signed.headerValue("x-amz-content-sha256") == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        #expect(
            signed.headerValue("authorization")?.hasSuffix(
                "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, "
                    + "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd") == true)
    }

    @Test func unsignedPayloadIsSignedAsTheLiteral() {
        let request = SigV4Request(
            method: "PUT", url: "https://examplebucket.s3.amazonaws.com/key",
            headers: [("x-amz-content-sha256", SigV4Payload.unsigned)], body: [1, 2, 3])
        let signed = Self.signer.signS3(request, credentials: Self.credentials, date: Self.date)
        let canonical = SigV4Signer.canonicalRequest(
            method: "PUT", path: "/key", query: nil, headers: signed.headers.filter { $0.name != "Authorization" },
            defaultHost: nil, payloadHash: SigV4Payload.unsigned, signing: nil)
        #expect(canonical.text.hasSuffix("\nUNSIGNED-PAYLOAD"))
        let expected = Self.signer.signature(
            stringToSign: Self.signer.stringToSign(canonicalRequest: canonical.text, time: AmzDate(Self.date)),
            secretAccessKey: Self.credentials.secretAccessKey, day: "20130524")
        #expect(signed.headerValue("authorization")?.hasSuffix("Signature=\(expected)") == true)
    }
}
