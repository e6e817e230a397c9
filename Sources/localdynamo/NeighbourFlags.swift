import ArgumentParser
import DynamoServer

/// `serve`'s flags for the AWS services beside LocalDynamo.
struct NeighbourFlags: ParsableArguments {
    @Option(
        name: .customLong("s3-endpoint"),
        help: ArgumentHelp(
            "S3 for ExportTableToPointInTime and ImportTable (moto, LocalStack, MinIO, AWS); default AWS_ENDPOINT_URL_S3, then AWS_ENDPOINT_URL. --s3-dir wins over it.",
            valueName: "URL"))
    var s3Endpoint: String?

    @Flag(name: .customLong("s3-virtual-hosted"), help: "Address buckets as BUCKET.host (virtual-hosted style) instead of host/BUCKET.")
    var s3VirtualHosted = false

    @Option(
        name: .customLong("s3-part-size"),
        help: ArgumentHelp(
            "Upload export objects larger than this in parts of this size (multipart upload; at least 5 MiB).",
            valueName: "BYTES"))
    var s3PartSize: Int?

    @Option(
        name: .customLong("kinesis-endpoint"),
        help: ArgumentHelp(
            "Kinesis for streaming destinations: every change of a table with an ACTIVE destination is put to its stream; default AWS_ENDPOINT_URL_KINESIS, then AWS_ENDPOINT_URL.",
            valueName: "URL"))
    var kinesisEndpoint: String?

    @Option(
        name: .customLong("aws-profile"),
        help: ArgumentHelp(
            "Sign calls to S3 and Kinesis with this profile's keys (shared credentials file) instead of AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.",
            valueName: "NAME"))
    var awsProfile: String?

    var options: NeighbourOptions {
        NeighbourOptions(
            s3Endpoint: s3Endpoint, kinesisEndpoint: kinesisEndpoint, s3VirtualHosted: s3VirtualHosted,
            awsProfile: awsProfile, s3PartSizeBytes: s3PartSize)
    }
}
