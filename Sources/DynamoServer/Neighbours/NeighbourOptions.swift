import AWSNeighbours
import DynamoEngine
import Logging

/// The AWS services beside LocalDynamo: S3 for exports and imports, Kinesis for streaming
/// destinations (`serve --s3-endpoint`, `--kinesis-endpoint`, `--s3-virtual-hosted`,
/// `--aws-profile`, `--s3-part-size`). Endpoints left `nil` come from `AWS_ENDPOINT_URL_S3`,
/// `AWS_ENDPOINT_URL_KINESIS` or `AWS_ENDPOINT_URL`.
public struct NeighbourOptions: Sendable {
    /// The S3 endpoint URL.
    public var s3Endpoint: String?
    /// The Kinesis endpoint URL.
    public var kinesisEndpoint: String?
    /// Address buckets as `bucket.host` instead of `host/bucket`.
    public var s3VirtualHosted = false
    /// The profile of the shared credentials file to sign with.
    public var awsProfile: String?
    /// Objects larger than this many bytes are uploaded in parts of this size (at least 5 MiB).
    public var s3PartSizeBytes: Int?

    /// No neighbours beyond what the environment names.
    public init(
        s3Endpoint: String? = nil, kinesisEndpoint: String? = nil, s3VirtualHosted: Bool = false,
        awsProfile: String? = nil, s3PartSizeBytes: Int? = nil
    ) {
        self.s3Endpoint = s3Endpoint
        self.kinesisEndpoint = kinesisEndpoint
        self.s3VirtualHosted = s3VirtualHosted
        self.awsProfile = awsProfile
        self.s3PartSizeBytes = s3PartSizeBytes
    }

    /// The object store (`--s3-dir` wins over an S3 endpoint) and the Kinesis sink.
    /// - Throws: when an endpoint is malformed or has no credentials.
    func resolve(s3Directory: String?, logger: Logger) throws -> (store: (any ObjectStore)?, sink: (any KinesisRecordSink)?) {
        let settings = try NeighbourSettings(
            s3Endpoint: s3Directory == nil ? s3Endpoint : nil,
            kinesisEndpoint: kinesisEndpoint, s3VirtualHosted: s3VirtualHosted,
            profile: awsProfile, multipartPartSize: s3PartSizeBytes)
        let store: (any ObjectStore)? =
            if let s3Directory {
                DirectoryObjectStore(root: s3Directory)
            } else {
                settings.s3Endpoint.map { S3ObjectStore(settings: settings, endpoint: $0) }
            }
        let sink = settings.kinesisEndpoint.map { KinesisPutRecordsSink(settings: settings, endpoint: $0, logger: logger) }
        if let endpoint = settings.s3Endpoint, s3Directory == nil { logger.info("S3 for exports and imports", metadata: ["endpoint": "\(endpoint)"]) }
        if let endpoint = settings.kinesisEndpoint { logger.info("Kinesis for streaming destinations", metadata: ["endpoint": "\(endpoint)"]) }
        return (store, sink)
    }
}
