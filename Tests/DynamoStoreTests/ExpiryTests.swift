import DynamoAPI
import DynamoClient
import DynamoStore
import Foundation
import Testing

/// A session that expires: `EntityMapping(expiresAt:)` turns TTL on, fetches leave out what
/// has expired but is not deleted yet.
final class Session: ManagedObject {
    override class var mapping: EntityMapping { EntityMapping(tableName: "Sessions", expiresAt: "expires") }
    @Attribute var id: String
    @Attribute var expires: Int64?
}

@Suite struct ExpiryTests {
    @Test func theExpiryAttributeTurnsTTLOnAndFetchesSkipExpiredObjects() async throws {
        try await withStore(model: try StoreModel([Session.entityDescription])) { fixture in
            let ttl = try await fixture.client.describeTimeToLive(DescribeTimeToLiveInput(tableName: "Sessions")).timeToLiveDescription
            #expect(ttl?.attributeName == "expires" && ttl?.timeToLiveStatus == .enabled)

            let context = fixture.context()
            let now = Int(Date().timeIntervalSince1970)
            for (id, expires) in [("past", now - 3600), ("future", now + 3600)] {
                let session = ManagedObject(entity: Session.entityDescription, context: context)
                session["id"] = id
                session["expires"] = Int64(expires)
            }
            ManagedObject(entity: Session.entityDescription, context: context)["id"] = "forever"
            try await context.save()

            var request = try FetchRequest("Session", in: fixture.store.model)
            #expect(request.explain().filter == "attribute_not_exists(#n0) OR #n0 > :v0")
            let ids = try await ObjectContext(store: fixture.store).fetch(request).compactMap { $0["id"] as? String }
            #expect(Set(ids) == ["future", "forever"])
            // Unsaved objects are matched the same way.
            let pending = ManagedObject(entity: Session.entityDescription, context: context)
            pending["id"] = "stale"
            pending["expires"] = Int64(now - 1)
            #expect(try await context.fetch(request).count == 2)
            request.includesExpiredObjects = true
            #expect(request.explain().filter == nil)
        }
    }

    @Test func theExpiryAttributeMustBeAnInteger() {
        let entity = EntityDescription("S", hashKey: "id", attributes: [.init("id", .string), .init("until", .date)])
        var expiring = entity
        expiring.expiryAttribute = "until"
        #expect(throws: ModelError(problems: ["S.until: the expiry (TTL) attribute must be an integer attribute of epoch seconds"])) {
            try StoreModel([expiring])
        }
    }
}
