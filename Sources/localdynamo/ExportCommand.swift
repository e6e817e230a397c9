import ArgumentParser
import DynamoAPI
import DynamoClient
import Foundation

/// `localdynamo export TABLE`: writes a table's items out.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a table's items as DynamoDB JSON lines, a plain JSON array, or DynamoDB's S3 export layout.",
        discussion: """
            jsonl and json scan the table (to --output, or standard output). s3 runs \
            ExportTableToPointInTime, the server's own export: the table needs point-in-time \
            recovery (--enable-pitr turns it on) and the files land in the server's --s3-dir under \
            BUCKET/PREFIX/AWSDynamoDB/<export id>/ (with --db-path, --s3-dir names that directory \
            here).
            """)

    @Argument(help: "The table to export.")
    var table: String

    @Option(help: "jsonl, json or s3.")
    var format: ItemFileFormat = .jsonl

    @Option(help: "The file to write (jsonl, json); standard output when left out.")
    var output: String?

    @Option(help: "s3: the bucket (a subdirectory of the server's --s3-dir).")
    var bucket: String?

    @Option(help: "s3: the key prefix.")
    var prefix: String?

    @Option(name: .customLong("s3-dir"), help: "s3 with --db-path: the directory that stands in for S3 (created if missing).")
    var s3Directory: String?

    @Flag(name: .customLong("enable-pitr"), help: "s3: turn on point-in-time recovery for the table first if it is off.")
    var enablePITR = false

    @Flag(help: "No progress output.")
    var quiet = false

    @OptionGroup var target: DataEndpointOptions

    func validate() throws {
        if format == .s3, bucket == nil { throw ValidationError("--format s3 needs --bucket.") }
        if format == .s3, target.dbPath != nil, s3Directory == nil { throw ValidationError("--format s3 with --db-path needs --s3-dir.") }
    }

    func run() async throws {
        if let s3Directory, let bucket {
            try FileManager.default.createDirectory(atPath: "\(s3Directory)/\(bucket)", withIntermediateDirectories: true)
        }
        try await target.withClient(s3Directory: s3Directory) { client in
            let description = try await client.send(DescribeTableInput(tableName: table)).table
            if format == .s3 {
                try await exportToS3(client, tableARN: description?.tableArn ?? table)
            } else {
                try await scanOut(client, total: description?.itemCount)
            }
        }
    }

    private func scanOut(_ client: DynamoClient, total: Int?) async throws {
        let sink = try OutputSink(path: output)
        let progress = ProgressReporter(verb: "exported", total: total, quiet: quiet)
        var start: [String: AttributeValue]?
        var count = 0
        if format == .json { sink.write(Array("[".utf8)) }
        repeat {
            let page = try await client.send(ScanInput(tableName: table, exclusiveStartKey: start))
            var writer = JSONWriter()
            for item in page.items ?? [] {
                if format == .json {
                    writer.writeRaw(Array((count == 0 ? "\n" : ",\n").utf8))
                    writer.writeRaw(Array(PlainJSON.json(item).serialized.utf8))
                } else {
                    AttributeValue.encode(item: item, to: &writer)
                    writer.writeRaw(UInt8(ascii: "\n"))
                }
                count += 1
            }
            sink.write(writer.bytes)
            progress.advance(by: page.items?.count ?? 0)
            start = page.lastEvaluatedKey
        } while start != nil
        if format == .json { sink.write(Array("\n]\n".utf8)) }
        sink.close()
        progress.finish()
        if output != nil { print("exported \(count) items of \(table) to \(output!) in \(ProgressReporter.format(progress.elapsed))s") }
    }

    private func exportToS3(_ client: DynamoClient, tableARN: String) async throws {
        if enablePITR {
            _ = try await client.send(
                UpdateContinuousBackupsInput(
                    tableName: table, pointInTimeRecoverySpecification: .init(pointInTimeRecoveryEnabled: true)))
        }
        var export: ExportDescription?
        do {
            export = try await client.send(ExportTableToPointInTimeInput(tableArn: tableARN, s3Bucket: bucket!, s3Prefix: prefix))
                .exportDescription
        } catch let error as DynamoError where error.code.rawValue == "PointInTimeRecoveryUnavailableException" {
            throw ValidationError("\(error.message ?? "Point in time recovery is not enabled"); pass --enable-pitr to turn it on.")
        }
        while export?.exportStatus == .inProgress, let arn = export?.exportArn {
            try await Task.sleep(for: .milliseconds(50))
            export = try await client.send(DescribeExportInput(exportArn: arn)).exportDescription
        }
        guard let export, export.exportStatus == .completed else {
            throw ValidationError("The export failed: \(export?.failureCode ?? "") \(export?.failureMessage ?? "")")
        }
        print("exported \(export.itemCount ?? 0) items of \(table) to s3://\(bucket!)/\(export.exportManifest ?? "")")
    }
}

/// A file or standard output, written in chunks.
final class OutputSink {
    private let handle: FileHandle

    init(path: String?) throws {
        if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw ValidationError("Cannot write '\(path)'.")
            }
            self.handle = handle
        } else {
            handle = FileHandle.standardOutput
        }
    }

    func write(_ bytes: [UInt8]) { if !bytes.isEmpty { handle.write(Data(bytes)) } }

    func close() { if handle !== FileHandle.standardOutput { try? handle.close() } }
}
