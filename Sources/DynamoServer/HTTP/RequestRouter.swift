import DynamoAPI
import NIOCore
import NIOHTTP1

/// Decides which service answers a complete request: the web console, the admin API (after the
/// signature check when `--require-auth` is on) or DynamoDB's protocol.
struct RequestRouter: Sendable {
    /// Where a request goes.
    enum Route {
        /// Answered already: a console page, or an admin request refused by the authenticator.
        case answer(Answer)
        /// An admin API request (answered from a task: its handlers await the thread pool).
        case admin(AdminRequest, AdminRouter)
        /// A DynamoDB protocol request (the wire checks, then the dispatcher).
        case dynamoDB
    }

    /// Answers `/_localdynamo/…` and `/metrics`; `nil` leaves those paths to the DynamoDB checks.
    let admin: AdminRouter?
    /// Verifies signatures (`--require-auth`); `nil` lets every admin request through.
    let authenticator: RequestAuthenticator?

    /// The route of a complete request.
    func route(_ head: HTTPRequestHead, body: ByteBuffer?) -> Route {
        if let page = ConsoleAssets.reply(method: head.method, uri: head.uri) {
            return .answer(Answer(reply: page, operation: "console"))
        }
        guard let admin, AdminRouter.handles(uri: head.uri) else { return .dynamoDB }
        if let authenticator, case .failure(let error) = authenticator.authenticate(head, body: body) {
            let reply = HTTPReply(
                status: .forbidden, contentType: WireProtocol.plainJSON,
                body: AdminRouter.errorBody("\(error.code.rawValue): \(error.message ?? "")"))
            return .answer(Answer(reply: reply, operation: "admin (refused)"))
        }
        let request = AdminRequest(
            method: head.method.rawValue, uri: head.uri,
            body: body.map { Array($0.readableBytesView) } ?? [])
        return .admin(request, admin)
    }
}
