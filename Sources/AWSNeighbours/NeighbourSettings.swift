import AWSSigV4
import Foundation

/// Where the AWS services beside LocalDynamo are and how to sign for them, found the way every
/// AWS SDK finds them: `serve --s3-endpoint` / `--kinesis-endpoint`, else
/// `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL_KINESIS`, else `AWS_ENDPOINT_URL`; credentials
/// from `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (/ `AWS_SESSION_TOKEN`), else the
/// profile (`--aws-profile`, else `AWS_PROFILE`, else `default`) of the shared credentials
/// file (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`), else, for an endpoint on
/// the loopback interface only, fixed test credentials.
package struct NeighbourSettings: Sendable {
    /// The S3 endpoint, `nil` for none.
    package var s3Endpoint: String?
    /// The Kinesis endpoint, `nil` for none.
    package var kinesisEndpoint: String?
    /// Whether buckets are addressed as `bucket.host` (`--s3-virtual-hosted`), not `host/bucket`.
    package var s3VirtualHosted = false
    /// Objects larger than this go up in parts of this size (S3's minimum part is 5 MiB).
    package var multipartPartSize = 8 * 1024 * 1024
    /// The keys to sign with, `nil` when none were found (requests are refused then).
    package var credentials: AWSCredentials?

    /// The fixed keys used for an endpoint on this machine when no others are configured
    /// (moto, LocalStack and MinIO in their default setups accept any or these).
    package static let testCredentials = AWSCredentials(accessKeyID: "test", secretAccessKey: "test")

    /// Resolves the settings from the flags and the environment.
    ///
    /// - Throws: ``NeighbourSettingsError`` for an endpoint that is not an `http(s)` URL, a
    ///   profile that is not in the credentials file, or a remote endpoint without credentials.
    package init(
        s3Endpoint: String?, kinesisEndpoint: String?, s3VirtualHosted: Bool, profile: String?,
        multipartPartSize: Int? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        func nonEmpty(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        self.s3Endpoint = try Self.checked(s3Endpoint ?? nonEmpty("AWS_ENDPOINT_URL_S3") ?? nonEmpty("AWS_ENDPOINT_URL"))
        self.kinesisEndpoint = try Self.checked(kinesisEndpoint ?? nonEmpty("AWS_ENDPOINT_URL_KINESIS") ?? nonEmpty("AWS_ENDPOINT_URL"))
        self.s3VirtualHosted = s3VirtualHosted
        if let multipartPartSize { self.multipartPartSize = max(5 * 1024 * 1024, multipartPartSize) }
        let endpoints = [self.s3Endpoint, self.kinesisEndpoint].compactMap { $0 }
        guard !endpoints.isEmpty else { return }
        if let key = nonEmpty("AWS_ACCESS_KEY_ID"), let secret = nonEmpty("AWS_SECRET_ACCESS_KEY"), profile == nil {
            credentials = AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: nonEmpty("AWS_SESSION_TOKEN"))
        } else if let found = try Self.profileCredentials(
            profile ?? nonEmpty("AWS_PROFILE"), explicit: profile != nil,
            environment: environment)
        {
            credentials = found
        } else if endpoints.allSatisfy(Self.isLoopback) {
            credentials = Self.testCredentials
        } else {
            throw NeighbourSettingsError(
                "No AWS credentials for \(endpoints.joined(separator: ", ")): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or pass --aws-profile")
        }
    }

    /// Whether an endpoint's host is this machine (`localhost`, `127.x.x.x`, `::1`).
    package static func isLoopback(_ endpoint: String) -> Bool {
        guard let host = URLParts(endpoint)?.host.lowercased() else { return false }
        return host == "localhost" || host.hasPrefix("127.") || host == "[::1]" || host == "::1"
    }

    private static func checked(_ endpoint: String?) throws -> String? {
        guard let endpoint else { return nil }
        guard let parts = URLParts(endpoint), parts.scheme == "http" || parts.scheme == "https" else {
            throw NeighbourSettingsError("Not an http(s) endpoint URL: \(endpoint)")
        }
        return endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
    }

    private static func profileCredentials(
        _ name: String?, explicit: Bool,
        environment: [String: String]
    ) throws -> AWSCredentials? {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let path = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? "\(home)/.aws/credentials"
        let profile = name ?? "default"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let values = ProfileFile(parsing: text, kind: .credentials).profiles[profile],
            let key = values["aws_access_key_id"], let secret = values["aws_secret_access_key"]
        else {
            if explicit { throw NeighbourSettingsError("Profile \(profile) has no keys in \(path)") }
            return nil
        }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: values["aws_session_token"])
    }
}

/// A neighbour setting that cannot work, said at startup.
package struct NeighbourSettingsError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
