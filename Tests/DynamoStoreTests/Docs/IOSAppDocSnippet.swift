// The code of docs/store.md, section "DynamoStore in an iOS app", compiled here as it is shown
// there (IOSAppDocTests checks the two are the same text, between the markers).
// BEGIN docs/store.md ios-app
import DynamoClient
import DynamoStore
import Foundation
import Observation
#if canImport(SwiftUI)
    import SwiftUI
#endif

/// One note of the app.
final class Note: ManagedObject {
    override class var mapping: EntityMapping {
        EntityMapping(hashKey: "id", version: "version", tableName: "Notes")
    }
    @Attribute var id = UUID()
    @Attribute var text: String
    @Attribute var created = Date()
    @Attribute var version: Int64 = 0
}

/// Where the app's data lives: LocalDynamo on the developer's Mac while developing, DynamoDB
/// with Cognito credentials in release.
enum NotesBackend {
    /// `localdynamo serve --host 0.0.0.0` on the Mac (the simulator reaches it as 127.0.0.1,
    /// a device by the Mac's address).
    case developerMac(host: String, port: Int)
    /// DynamoDB, signed with an identity of a Cognito identity pool.
    case aws(identityPoolID: String, region: String, identityStore: any CognitoIdentityIDStore)

    /// The store of the app's model.
    func makeStore() throws -> DynamoStore {
        let client: DynamoClient
        switch self {
        case .developerMac(let host, let port):
            client = DynamoClient.local(port: port, host: host)
        case .aws(let identityPoolID, let region, let identityStore):
            var configuration = DynamoClient.Configuration(region: region)
            configuration.credentialProvider = try CognitoIdentityCredentialProvider(
                identityPoolID: identityPoolID, region: region, identityStore: identityStore)
            client = try DynamoClient(configuration: configuration)
        }
        return try DynamoStore(types: [Note.self], client: client)
    }
}

/// The notes, newest first, kept current by a fetch observation.
@MainActor @Observable
final class NotesModel {
    private(set) var notes: [Note] = []
    private(set) var unsaved = false
    private let context: ObjectContext

    init(store: DynamoStore) {
        context = ObjectContext(store: store)
    }

    /// Follows the fetch until the view goes away (its task is cancelled).
    func follow() async {
        do {
            let newestFirst = try FetchRequest<Note>(in: context.store.model, sortBy: [.descending("created")])
            for try await update in context.observe(newestFirst) {
                notes = update.objects
            }
        } catch {
            // Cancelled with the view, or the store failed; the list keeps what it showed.
        }
    }

    /// Adds a note and saves; offline, the note stays in the context for the next save.
    func add(_ text: String) async {
        let note = Note(context: context)
        note.text = text
        do {
            try await context.save()
            unsaved = false
        } catch let error as TransportError where error.isRetryable {
            unsaved = true
        } catch {
            context.rollback()
        }
    }
}

#if canImport(SwiftUI)
    struct NotesView: View {
        @State var model: NotesModel

        var body: some View {
            List(model.notes, id: \.objectID) { note in
                Text(note.text)
            }
            .task { await model.follow() }
        }
    }
#endif
// END docs/store.md ios-app
