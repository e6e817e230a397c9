import DynamoClient
import DynamoStore
import DynamoTestSupport
import Foundation
import Testing

/// The iOS-app section of docs/store.md is the code that compiles here, and its store works.
struct IOSAppDocTests {
    /// The lines between the markers of the snippet file, and the Swift block of the section.
    @Test func docShowsTheCompiledSnippet() throws {
        let snippet = try StoreDocSnippet("ios-app", file: "IOSAppDocSnippet.swift", section: "DynamoStore in an iOS app")
        #expect(snippet.block == snippet.code)
    }

    @Test func developerMacBackendStoresNotes() async throws {
        try await withTestServer { endpoint in
            let store = try NotesBackend.developerMac(host: endpoint.host, port: endpoint.port).makeStore()
            try await store.createTables(pollInterval: .milliseconds(10))
            let context = ObjectContext(store: store)
            let note = Note(context: context)
            note.text = "milk"
            try await context.save()
            let fetched = try await ObjectContext(store: store).fetch(FetchRequest<Note>(in: store.model, sortBy: [.descending("created")]))
            #expect(fetched.map(\.text) == ["milk"])
        }
    }

    /// The view model shows a saved note through its fetch observation and stops with its task.
    @Test func notesModelAddsAndFollows() async throws {
        try await withTestServer { endpoint in
            let store = try NotesBackend.developerMac(host: endpoint.host, port: endpoint.port).makeStore()
            try await store.createTables(pollInterval: .milliseconds(10))
            try await Self.addAndFollow(store)
        }
    }

    @MainActor static func addAndFollow(_ store: DynamoStore) async throws {
        let model = NotesModel(store: store)
        await model.add("milk")
        #expect(!model.unsaved)
        let following = Task { await model.follow() }
        let deadline = ContinuousClock.now + .seconds(20)
        while model.notes.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(model.notes.map(\.text) == ["milk"])
        following.cancel()
        await following.value
    }

    @Test func awsBackendResolvesItsEndpointAndCognitoProvider() throws {
        let store = try NotesBackend.aws(
            identityPoolID: "eu-west-1:00000000-0000-0000-0000-000000000000", region: "eu-west-1",
            identityStore: InMemoryCognitoIdentityIDStore()
        ).makeStore()
        #expect(store.client.endpoint == "https://dynamodb.eu-west-1.amazonaws.com/")
    }
}
