import ArgumentParser
import DynamoAPI
import DynamoClient

/// `localdynamo streams`: tools for a running server's DynamoDB Streams.
struct StreamsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streams",
        abstract: "Watch a running server's DynamoDB Streams.",
        subcommands: [StreamsTailCommand.self])
}

/// `localdynamo streams tail TABLE`: prints a table's stream records, one JSON object per line,
/// as they arrive, following shard lineage and new streams of the table, until interrupted.
struct StreamsTailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Print a table's stream records as they arrive (one JSON record per line).")

    @Argument(help: "The table whose stream to follow.")
    var table: String

    @Option(help: "The server's host.")
    var host = "127.0.0.1"

    @Option(help: "The server's port.")
    var port = 8000

    @Option(help: "The region (namespace) the table lives in.")
    var region = "us-east-1"

    @Flag(name: .customLong("from-start"), help: "Print the records already in the stream first (default: only new ones).")
    var fromStart = false

    @Option(help: "Seconds between polls.")
    var interval: Double = 1

    func validate() throws {
        guard interval > 0, interval.isFinite else { throw ValidationError("--interval takes a number of seconds > 0.") }
    }

    /// Where the tail stands in one shard.
    private struct ShardState {
        var iterator: String?
        var lastSequence: String?
        var finished = false
    }

    func run() async throws {
        let client = DynamoClient.local(port: port, host: host, region: region)
        var streamARN: String?
        var shards: [String: ShardState] = [:]
        var first = true
        while !Task.isCancelled {
            if let latest = try? await client.listStreams(StreamsListStreamsInput(tableName: table)).streams?.first?.streamArn,
                latest != streamARN
            {
                // A new stream (first poll, or the stream was re-enabled): start over on it.
                if streamARN != nil { first = false }
                streamARN = latest
                shards = [:]
            }
            if let arn = streamARN {
                try await poll(client, arn: arn, shards: &shards, startAtLatest: first && !fromStart)
                first = false
            }
            try await Task.sleep(for: .milliseconds(Int64(interval * 1000)))
        }
    }

    /// Prints what each shard has gained since the last poll, parents before children.
    private func poll(_ client: DynamoClient, arn: String, shards: inout [String: ShardState], startAtLatest: Bool) async throws {
        guard let described = try? await client.describeStream(StreamsDescribeStreamInput(streamArn: arn)).streamDescription?.shards
        else { return }
        for shard in described {
            guard let id = shard.shardId else { continue }
            var state = shards[id] ?? ShardState()
            if state.finished { continue }
            if state.iterator == nil {
                let type: StreamsShardIteratorType =
                    state.lastSequence != nil
                    ? .afterSequenceNumber
                    : startAtLatest ? .latest : .trimHorizon
                state.iterator = try? await client.getShardIterator(
                    StreamsGetShardIteratorInput(
                        streamArn: arn, shardId: id, shardIteratorType: type, sequenceNumber: state.lastSequence)
                ).shardIterator
            }
            while let iterator = state.iterator {
                guard let page = try? await client.getRecords(StreamsGetRecordsInput(shardIterator: iterator)) else {
                    state.iterator = nil // expired or trimmed: take a new one next poll
                    break
                }
                for record in page.records ?? [] {
                    ServeCommand.writeToStandardOutput(String(decoding: record.jsonBytes, as: UTF8.self) + "\n")
                    state.lastSequence = record.dynamodb?.sequenceNumber ?? state.lastSequence
                }
                state.iterator = page.nextShardIterator
                if page.nextShardIterator == nil { state.finished = true }
                if (page.records ?? []).isEmpty { break }
            }
            shards[id] = state
        }
    }
}
