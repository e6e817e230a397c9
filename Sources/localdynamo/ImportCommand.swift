import ArgumentParser
import DynamoAPI
import DynamoClient

/// `localdynamo import TABLE FILE`: loads items into an existing table.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load items from a file into a table (DynamoDB JSON lines, a plain JSON array, or a DynamoDB export).",
        discussion: """
            The table must exist. Items go in through BatchWriteItem, 25 at a time, on a running \
            server (--endpoint, default http://127.0.0.1:8000) or a database directory \
            (--db-path). A bad entry is reported with its file and line: --on-error fail (the \
            default) stops, writing nothing when an entry cannot be read; --on-error skip reports \
            it, loads the rest and exits 3. Progress goes to standard error: a bar with rate and ETA on a \
            terminal, a plain line every two seconds otherwise.
            """)

    @Argument(help: "The table to load into.")
    var table: String

    @Argument(help: "A .jsonl file (DynamoDB JSON, one item a line), a .json file (a plain JSON array) or an export directory.")
    var file: String

    @Option(help: "jsonl, json or s3 (an export's AWSDynamoDB/<id> directory); guessed from the file name when left out.")
    var format: ItemFileFormat?

    @Option(name: .customLong("on-error"), help: "skip or fail: what a bad entry does.")
    var onError: OnError = .fail

    @Flag(help: "No progress output.")
    var quiet = false

    @OptionGroup var target: DataEndpointOptions

    func run() async throws {
        guard let format = format ?? ItemFileFormat.guess(path: file) else {
            throw ValidationError("Cannot tell the format of '\(file)'; pass --format jsonl, json or s3.")
        }
        let entries = try ItemFile.read(file, format: format)
        let outcome = try await target.withClient { client in
            _ = try await client.send(DescribeTableInput(tableName: table))
            let progress = ProgressReporter(verb: "imported", total: entries.count, quiet: quiet)
            let loader = ItemLoader(client: client, table: table, onError: onError) { ServeCommand.writeToStandardError($0 + "\n") }
            let outcome = try await loader.load(entries, progress: progress)
            progress.finish()
            return (outcome, progress.elapsed)
        }
        let skipped = outcome.0.skipped == 0 ? "" : ", skipped \(outcome.0.skipped) bad entries"
        print("imported \(outcome.0.written) items into \(table)\(skipped) in \(ProgressReporter.format(outcome.1))s")
        if outcome.0.skipped > 0 { throw ExitCode(3) }
    }
}

extension ItemFileFormat: ExpressibleByArgument {}
