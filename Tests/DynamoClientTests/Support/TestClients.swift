import Foundation
import Synchronization
@testable import DynamoClient

/// Records the backoff sleeps of a client instead of sleeping.
final class SleepRecorder: Sendable {
    private let sleeps = Mutex<[Duration]>([])

    /// The durations slept so far.
    var recorded: [Duration] { sleeps.withLock { $0 } }

    /// A retry configuration with a fixed random value and recorded, instant sleeps.
    func retry(attempts: Int = 3, random: Double = 0.5, capacity: Int = 500) -> RetryConfiguration {
        RetryConfiguration(
            maximumAttempts: attempts, tokenBucketCapacity: capacity, random: { random },
            sleep: { [self] duration in sleeps.withLock { $0.append(duration) } })
    }
}

enum TestClients {
    static let credentials = AWSCredentials(accessKeyID: "AKIDTEST", secretAccessKey: "secret")

    /// A client for `endpoint` that reads nothing from the machine: empty environment, no files.
    static func client(
        endpoint: String, retry: RetryConfiguration = SleepRecorder().retry(),
        timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(2), request: .seconds(10)),
        environment: [String: String] = [:], transport: (any HTTPTransport)? = nil
    ) throws -> DynamoClient {
        var configuration = DynamoClient.Configuration(region: "us-east-1", endpoint: endpoint, credentials: credentials)
        configuration.transport = transport
        configuration.sources = ConfigurationSources(environment: environment)
        configuration.retry = retry
        configuration.timeouts = timeouts
        return try DynamoClient(configuration: configuration)
    }
}
