import DynamoAPI
import DynamoClient
import DynamoStore
import DynamoTestSupport
import Foundation
import Testing

/// A card whose deletions leave a tombstone for a day (DynamoDB's TTL on `expiresAt`).
final class Card: ManagedObject {
    override class var mapping: EntityMapping {
        EntityMapping(hashKey: "id", version: "version", tableName: "OfflineCards", expiresAt: "expiresAt", tombstoneLifetime: .seconds(86_400))
    }
    @Attribute var id: String
    @Attribute var text: String
    @Attribute var version: Int64 = 0
    @Attribute var expiresAt: Int64?
}

/// Tombstones kept by TTL (`EntityMapping(tombstoneLifetime:)`): a deletion writes a tombstone
/// row in place of the row, every read takes it as no row, a phone's refresh sees it as the
/// deletion, and once the server's clock passes its time DynamoDB's TTL sweep removes it while
/// the deletion holds on the phone.
@Suite("OfflineTombstoneTests")
struct OfflineTombstoneTests {
    @Test func aDeletionLeavesATombstoneThePhoneSeesAndTTLRemovesIt() async throws {
        try await withTestServer { endpoint in
            try await withTemporaryDirectory { directory in
                var configuration = DynamoClient.Configuration(
                    region: "us-east-1", endpoint: endpoint.url, credentials: AWSCredentials(accessKeyID: "test", secretAccessKey: "test"))
                configuration.transport = endpoint.transport
                let client = try DynamoClient(configuration: configuration)
                // Another device, online, without an offline store.
                let other = try DynamoStore(types: [Card.self], client: client)
                try await other.createTables(pollInterval: .milliseconds(10))
                let id = ObjectID(entityName: "Card", key: ["id": .s("c1")])
                let writer = ObjectContext(store: other)
                let card = Card(context: writer)
                card.id = "c1"
                card.text = "hello"
                try await writer.save()

                let radio = PhoneRadio(inner: endpoint.transport)
                var phoneConfiguration = configuration
                phoneConfiguration.transport = radio
                phoneConfiguration.retry = .disabled
                let offline = try OfflineStore(path: directory.appendingPathComponent("phone.sqlite").path)
                let phone = try DynamoStore(types: [Card.self], client: try DynamoClient(configuration: phoneConfiguration), offline: offline)
                let reader = ObjectContext(store: phone)
                #expect(try await reader.existingObject(with: id, as: Card.self)?.text == "hello")

                // The other device deletes it: DynamoDB holds the tombstone, version + 1.
                let deleter = ObjectContext(store: other)
                deleter.delete(try #require(try await deleter.existingObject(with: id, as: Card.self)))
                try await deleter.save()
                let tombstone = try #require(try await Self.row(client))
                let deletedAt = try #require(tombstone.integer(EntityDescription.tombstoneAttribute))
                #expect(tombstone.integer("version") == 2)
                #expect(tombstone["text"] == nil)
                #expect(tombstone.integer("expiresAt") == deletedAt + 86_400)
                // Every read of the store takes it as no row.
                let online = ObjectContext(store: other)
                #expect(try await online.existingObject(with: id, as: Card.self) == nil)
                #expect(try await online.fetch(try FetchRequest<Card>(in: other.model)).isEmpty)
                #expect(try await online.count(for: try FetchRequest<Card>(in: other.model)) == 0)

                // The phone's refresh sees the deletion; offline the card is gone.
                let changes = try await phone.refreshCache()
                #expect(changes.deleted == [id])
                #expect(changes.updated.isEmpty)
                radio.isOffline = true
                let offlineReader = ObjectContext(store: phone)
                #expect(try await offlineReader.existingObject(with: id, as: Card.self) == nil)
                #expect(try await offlineReader.fetch(try FetchRequest<Card>(in: phone.model)).isEmpty)

                // A day later (the server's clock) the TTL sweep removes the tombstone.
                #expect(try await Self.admin(endpoint, "clock", body: #"{"advanceSeconds": 86460}"#).status == 200)
                // The sweep answers once every expired item is deleted (by it, or by the
                // server's periodic sweeper just before it).
                #expect(try await Self.admin(endpoint, "ttl/sweep").status == 200)
                #expect(try await Self.row(client) == nil)

                // The deletion still holds on the phone: nothing changed for it, online or off.
                radio.isOffline = false
                #expect(try await phone.refreshCache() == StoreChanges())
                #expect(try await ObjectContext(store: phone).existingObject(with: id, as: Card.self) == nil)
                radio.isOffline = true
                #expect(try await ObjectContext(store: phone).existingObject(with: id, as: Card.self) == nil)
                #expect(try offline.cachedRowCount() == 0)
            }
        }
    }

    @Test func anInsertTakesTheKeyOfATombstone() async throws {
        try await withTestServer { endpoint in
            let client = endpoint.client()
            let store = try DynamoStore(types: [Card.self], client: client)
            try await store.createTables(pollInterval: .milliseconds(10))
            let first = ObjectContext(store: store)
            let card = Card(context: first)
            card.id = "c1"
            card.text = "first"
            try await first.save()
            first.delete(card)
            try await first.save()
            #expect(try await Self.row(client)?.integer(EntityDescription.tombstoneAttribute) != nil)

            let second = ObjectContext(store: store)
            let again = Card(context: second)
            again.id = "c1"
            again.text = "second"
            try await second.save()
            let row = try #require(try await Self.row(client))
            #expect(row.text("text") == "second")
            #expect(row[EntityDescription.tombstoneAttribute] == nil)
            #expect(try await ObjectContext(store: store).existingObject(with: again.objectID, as: Card.self)?.text == "second")
        }
    }

    private static func row(_ client: DynamoClient) async throws -> Item? {
        try await client.getItem(GetItemInput(tableName: "OfflineCards", key: ["id": .s("c1")], consistentRead: true)).item
    }

    /// A request to the server's admin API (`/_localdynamo/…`).
    private static func admin(_ endpoint: TestEndpoint, _ path: String, body: String = "") async throws -> HTTPResponse {
        try await endpoint.transport.send(
            HTTPRequest(method: "POST", url: "\(endpoint.url)/_localdynamo/\(path)", body: Array(body.utf8)), timeouts: HTTPTimeouts())
    }
}
