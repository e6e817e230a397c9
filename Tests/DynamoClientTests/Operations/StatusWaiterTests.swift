import DynamoAPI
import DynamoTestSupport
import Testing
@testable import DynamoClient

/// The waiters for backups, TTL and streams against LocalDynamo; exports, imports and replicas
/// (which need S3 or a second region) against scripted answers, with their failure states.
struct StatusWaiterTests {
    @Test func backupTimeToLiveAndStreamThroughLocalDynamo() async throws {
        try await withTestServer { endpoint in
            let client = try await LocalTables.client(endpoint, table: "Waited")
            try await client.waitUntilTableExists("Waited", delay: .milliseconds(50))
            let created = try await client.createBackup(CreateBackupInput(tableName: "Waited", backupName: "nightly"))
            let arn = try #require(created.backupDetails?.backupArn)
            let details = try await client.waitUntilBackupAvailable(arn, delay: .milliseconds(50), maximumAttempts: 100)
            #expect(details.backupStatus == .available)

            _ = try await client.updateTimeToLive(
                UpdateTimeToLiveInput(
                    tableName: "Waited", timeToLiveSpecification: TimeToLiveSpecification(enabled: true, attributeName: "expires")))
            let ttl = try await client.waitUntilTimeToLive("Waited", delay: .milliseconds(50), maximumAttempts: 100)
            #expect(ttl.attributeName == "expires")

            var update = UpdateTableInput(tableName: "Waited")
            update.streamSpecification = StreamSpecification(streamEnabled: true, streamViewType: .newImage)
            _ = try await client.updateTable(update)
            let streamArn = try await client.waitUntilStreamEnabled("Waited", delay: .milliseconds(50), maximumAttempts: 100)
            #expect(streamArn.contains("Waited/stream/"))
        }
    }

    @Test func exportWaiterPollsUntilCompletedAndReportsFailure() async throws {
        let inProgress = #"{"ExportDescription":{"ExportArn":"arn:e","ExportStatus":"IN_PROGRESS"}}"#
        let completed = #"{"ExportDescription":{"ExportArn":"arn:e","ExportStatus":"COMPLETED"}}"#
        let failed =
            #"{"ExportDescription":{"ExportArn":"arn:e","ExportStatus":"FAILED","FailureCode":"S3NoSuchBucket","FailureMessage":"no bucket"}}"#
        try await withFakeServer([.ok(inProgress), .ok(completed)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let export = try await client.waitUntilExportCompleted("arn:e", delay: .milliseconds(1))
            #expect(export.exportStatus == .completed)
            #expect(server.requests.count == 2)
        }
        try await withFakeServer([.ok(failed)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            await #expect(throws: DynamoClientError.waiterFailed("export arn:e FAILED: S3NoSuchBucket no bucket")) {
                try await client.waitUntilExportCompleted("arn:e", delay: .milliseconds(1))
            }
        }
    }

    @Test func importWaiterFailsOnCancelled() async throws {
        let cancelled = #"{"ImportTableDescription":{"ImportArn":"arn:i","ImportStatus":"CANCELLED"}}"#
        try await withFakeServer([.ok(cancelled)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            await #expect(throws: DynamoClientError.waiterFailed("import arn:i CANCELLED: - ")) {
                try await client.waitUntilImportCompleted("arn:i", delay: .milliseconds(1))
            }
        }
    }

    @Test func replicaWaiterWaitsForTheRegionAndTimesOut() async throws {
        let creating = #"{"Table":{"TableName":"t","Replicas":[{"RegionName":"eu-west-1","ReplicaStatus":"CREATING"}]}}"#
        let active =
            #"{"Table":{"TableName":"t","Replicas":[{"RegionName":"us-west-2","ReplicaStatus":"CREATING"},{"RegionName":"eu-west-1","ReplicaStatus":"ACTIVE"}]}}"#
        try await withFakeServer([.ok(#"{"Table":{"TableName":"t"}}"#), .ok(creating), .ok(active)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            let replica = try await client.waitUntilReplicaActive("t", region: "eu-west-1", delay: .milliseconds(1))
            #expect(replica.replicaStatus == .active)
            #expect(server.requests.count == 3)
        }
        try await withFakeServer([.ok(creating)]) { server in
            let client = try TestClients.client(endpoint: server.url)
            await #expect(throws: DynamoClientError.waiterTimedOut("replica of t in eu-west-1 not ACTIVE after 3 attempts")) {
                try await client.waitUntilReplicaActive("t", region: "eu-west-1", delay: .milliseconds(1), maximumAttempts: 3)
            }
        }
    }
}
