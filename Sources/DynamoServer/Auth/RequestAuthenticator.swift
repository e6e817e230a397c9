import AWSSigV4
import DynamoAPI
import DynamoEngine
import NIOCore
import NIOHTTP1
import Synchronization

/// SigV4 verification of every request when the server runs with `--require-auth`: the
/// identities of the credentials file (re-read by ``reload()``, on SIGHUP), the verifier, and
/// the server clock the request time is judged by.
package final class RequestAuthenticator: Sendable {
    /// The credentials file.
    package let path: String
    private let identities: Mutex<[String: AWSCredentials]>
    private let verifier: SigV4Verifier
    private let clock: ServerClock

    /// Reads the identities of `path`.
    ///
    /// - Parameters:
    ///   - path: a file in the AWS shared-credentials format.
    ///   - allowedSkew: seconds a request's time may differ from the clock (`--clock-skew`).
    ///   - clock: the server clock.
    /// - Throws: ``CredentialsFile/Problem`` when the file is unreadable or malformed.
    package init(credentialsFile path: String, allowedSkew: Double, clock: ServerClock) throws {
        self.path = path
        identities = Mutex(try CredentialsFile.load(path))
        verifier = SigV4Verifier(service: "dynamodb", allowedSkew: allowedSkew)
        self.clock = clock
    }

    /// Re-reads the credentials file; a file that fails to parse leaves the identities as they were.
    /// - Returns: how many identities are accepted now.
    @discardableResult
    package func reload() throws -> Int {
        let fresh = try CredentialsFile.load(path)
        identities.withLock { $0 = fresh }
        return fresh.count
    }

    /// The access key ids accepted now.
    package var accessKeyIDs: [String] { identities.withLock { $0.keys.sorted() } }

    /// Verifies one request's signature against the identities and the server clock.
    ///
    /// - Returns: the signer and region, or DynamoDB's error (all of them HTTP 400).
    func authenticate(_ head: HTTPRequestHead, body: ByteBuffer?) -> Result<SigV4Verified, DynamoError> {
        let request = SigV4IncomingRequest(
            method: head.method.rawValue, target: head.uri,
            headers: head.headers.map { (name: $0.name, value: $0.value) })
        let verdict = verifier.verify(
            request, now: clock.now(),
            payloadHash: {
                SHA256.hash(body?.readableBytesView ?? ByteBuffer().readableBytesView).hexString
            }, identity: { key in identities.withLock { $0[key] } })
        return verdict.mapError { DynamoError(DynamoErrorCode(rawValue: $0.kind.rawValue), $0.message) }
    }
}
