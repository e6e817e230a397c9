@testable import DynamoEngine
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Logging
import Synchronization
import Testing

/// `serve --sync` and the write-ahead log's checkpoints on a file database.
@Suite struct DurabilityTests {
    static func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    @Test(arguments: [(SyncMode.normal, Int64(1)), (SyncMode.full, Int64(2))])
    func syncModeSetsTheWritersSynchronousPragma(mode: SyncMode, expected: Int64) throws {
        try Self.withDirectory { directory in
            let engine = try DynamoEngine(
                storage: .directory(directory), namespaceMode: .perRegion,
                logger: Logger(label: "test"), syncMode: mode)
            defer { engine.close() }
            #expect(try engine.database(accessKeyID: nil, region: "us-east-1").synchronousSetting == expected)
        }
    }

    /// A read that leaves its statement on a row must not keep a snapshot once its connection is
    /// back in the pool: a TRUNCATE checkpoint then empties the log at once.
    @Test func aPooledReaderHoldsNoSnapshotThatStopsCheckpoints() throws {
        try Self.withDirectory { directory in
            let database = try Database(path: "\(directory)/us-east-1.db", region: "us-east-1")
            try InvariantTests.makeTable(database)
            try database.read { connection in
                let statement = try connection.statement("SELECT name FROM catalog")
                #expect(try statement.step()) // stopped on its first row
            }
            let busy = try database.writer.withLock { state in
                state.connection.releaseSnapshot() // as the writer does before it checkpoints
                let statement = try state.connection.statement("PRAGMA wal_checkpoint(TRUNCATE)")
                defer { statement.reset() }
                _ = try statement.step()
                return statement.int64(0)
            }
            #expect(busy == 0)
            #expect(CheckpointPolicy.fileSize("\(directory)/us-east-1.db-wal") == 0)
        }
    }
}
