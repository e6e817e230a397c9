import Foundation
import Synchronization
import Testing
@testable import DynamoClient
import DynamoTestSupport

/// The new sources behind ``CachingCredentialProvider``: one STS call for many concurrent
/// first users, a new call once the credentials come due.
struct CachedSourcesTests {
    static func assumeRole(_ server: FakeHTTPServer) -> AssumeRoleCredentialProvider {
        AssumeRoleCredentialProvider(
            roleARN: "arn:aws:iam::123456789012:role/r", source: StaticCredentialProvider(TestClients.credentials),
            sources: FakeAWS.sources(["AWS_ENDPOINT_URL_STS": server.url]), transport: TestTransport.defaultSocketTransport())
    }

    @Test func concurrentFirstUseSendsOneRequest() async throws {
        // The answer is delayed so every caller arrives while the first request is in flight.
        try await withFakeServer([.delay(.milliseconds(300), FakeAWS.stsAnswer())]) { server in
            let cache = CachingCredentialProvider(Self.assumeRole(server), now: { Date(timeIntervalSince1970: 1_800_000_000) })
            let keys = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<32 { group.addTask { try await cache.resolveCredentials()?.accessKeyID } }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(keys.count == 32 && keys.allSatisfy { $0 == "ASIAROLE" })
            #expect(server.requests.count == 1)
        }
    }

    @Test func credentialsComingDueAreRefreshedFromSTS() async throws {
        try await withFakeServer([
            FakeAWS.stsAnswer(keyID: "ASIAFIRST", expiration: "2027-01-15T09:00:00Z"),
            FakeAWS.stsAnswer(keyID: "ASIASECOND", expiration: "2027-01-15T10:00:00Z"),
        ]) { server in
            let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000)) // 08:00, an hour before expiry
            let cache = CachingCredentialProvider(Self.assumeRole(server), now: { time.withLock { $0 } })
            let credentials = try await cache.resolveCredentials()
            #expect(credentials?.accessKeyID == "ASIAFIRST")
            let beforeExpiry = try await cache.resolveCredentials()
            #expect(beforeExpiry?.accessKeyID == "ASIAFIRST")
            #expect(server.requests.count == 1)
            // Past expiry: the caller waits for the new credentials.
            time.withLock { $0 = Date(timeIntervalSince1970: 1_800_003_601) }
            let afterExpiry = try await cache.resolveCredentials()
            #expect(afterExpiry?.accessKeyID == "ASIASECOND")
            #expect(server.requests.count == 2)
        }
    }
}
