import ArgumentParser
import DynamoAPI
import DynamoClient
import Foundation

/// `localdynamo bulk-put TABLE --bucket BUCKET`: runs StartBulkPutItems and follows it.
struct BulkPutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bulk-put",
        abstract: "Load items from S3 into an existing table with StartBulkPutItems, and follow the operation to its end.",
        discussion: """
            The server's own bulk put: it reads the objects under s3://BUCKET/PREFIX (through the \
            server's --s3-endpoint or --s3-dir; with --db-path, --s3-dir names that directory \
            here), DynamoDB JSON lines or Ion, each record an Item and optionally a \
            ConditionExpression with its ExpressionAttributeNames and ExpressionAttributeValues. \
            Records that cannot be written are reported under s3://OUTPUT-BUCKET/OUTPUT-PREFIX/\
            AWSDynamoDB/<operation id>/. Progress (bytes read of the input) goes to standard \
            error: a bar on a terminal, a plain line every two seconds otherwise. Exits 0 when \
            the operation is COMPLETED, 3 when COMPLETED_WITH_ERRORS, 1 when FAILED or CANCELLED; \
            with --no-wait it prints the operation's ARN and returns at once.
            """)

    @Argument(help: "The table to load into (it must exist).")
    var table: String

    @Option(help: "The input bucket.")
    var bucket: String

    @Option(help: "The input key prefix.")
    var prefix: String?

    @Option(help: "DYNAMODB_JSON or ION.")
    var format = "DYNAMODB_JSON"

    @Option(help: "GZIP, ZSTD or NONE.")
    var compression = "NONE"

    @Option(name: .customLong("output-bucket"), help: "Where ERROR and CONDITION_CHECK_FAILURE records go.")
    var outputBucket: String

    @Option(name: .customLong("output-prefix"), help: "The output key prefix.")
    var outputPrefix: String?

    @Option(name: .customLong("output-type"), help: "ERROR, CONDITION_CHECK_FAILURE or both, comma-separated.")
    var outputType = "ERROR,CONDITION_CHECK_FAILURE"

    @Option(name: .customLong("max-write-request-units"), help: "Write request units per second the operation may use (at least 1024).")
    var maxWriteRequestUnits: Int?

    @Option(name: .customLong("client-token"), help: "An idempotency token (8 hours).")
    var clientToken: String?

    @Option(name: .customLong("s3-dir"), help: "With --db-path: the directory that stands in for S3.")
    var s3Directory: String?

    @Flag(name: .customLong("no-wait"), help: "Start the operation and print its ARN without following it.")
    var noWait = false

    @Flag(help: "No progress output.")
    var quiet = false

    @OptionGroup var target: DataEndpointOptions

    func validate() throws {
        if target.dbPath != nil, s3Directory == nil { throw ValidationError("bulk-put with --db-path needs --s3-dir.") }
        if target.dbPath != nil, noWait {
            throw ValidationError("--no-wait needs a running server (--endpoint): with --db-path the job runs in this process.")
        }
        if let units = maxWriteRequestUnits, units < 1024 { throw ValidationError("--max-write-request-units must be at least 1024.") }
    }

    func run() async throws {
        let description = try await target.withClient(s3Directory: s3Directory) { client in
            let types = outputType.split(separator: ",").map { OutputTypeEnum(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
            let input = StartBulkPutItemsInput(
                clientToken: clientToken ?? UUID().uuidString,
                inputS3Configuration: InputS3Configuration(
                    s3Bucket: bucket, s3KeyPrefix: prefix, inputFormat: BulkOperationInputFormat(rawValue: format),
                    inputCompressionType: InputCompressionType(rawValue: compression)),
                outputS3Configuration: OutputS3Configuration(s3Bucket: outputBucket, s3KeyPrefix: outputPrefix, outputType: types),
                tableName: table, maxWriteRequestUnits: maxWriteRequestUnits)
            let started = try await client.send(input).bulkOperationDescription
            guard !noWait, let arn = started.bulkOperationArn else { return started }
            return try await follow(client, arn: arn)
        }
        if noWait {
            print(description.bulkOperationArn ?? "")
            return
        }
        let status = description.bulkOperationStatus?.rawValue ?? "?"
        var line = "\(status): processed \(description.processedItemCount ?? 0) items, \(description.failedItemCount ?? 0) failed"
        if let code = description.failureCode { line += " (\(code): \(description.failureMessage ?? ""))" }
        print(line)
        switch description.bulkOperationStatus {
        case .completed?: return
        case .completedWithErrors?: throw ExitCode(3)
        default: throw ExitCode(1)
        }
    }

    /// Polls DescribeBulkOperation until the operation ends, drawing the bytes read.
    private func follow(_ client: DynamoClient, arn: String) async throws -> BulkOperationDescription {
        var progress: ProgressReporter?
        var shown = 0
        while true {
            let description = try await client.send(DescribeBulkOperationInput(bulkOperationArn: arn)).bulkOperationDescription
            if progress == nil, let total = description.totalInputBytes {
                progress = ProgressReporter(verb: "read", total: total, quiet: quiet, unit: "bytes")
            }
            let read = description.processedInputBytes ?? 0
            progress?.advance(by: read - shown)
            shown = read
            switch description.bulkOperationStatus {
            case .inProgress?, .cancelling?:
                try await Task.sleep(for: .milliseconds(200))
            default:
                progress?.finish()
                return description
            }
        }
    }
}
