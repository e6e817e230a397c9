import DynamoAPI
import DynamoEngine
import Logging
import NIOPosix

/// A request to the admin API: everything under `/_localdynamo/` on the DynamoDB port.
package struct AdminRequest: Sendable {
    /// `GET`, `POST`, `DELETE` …
    package var method: String
    /// The path without its query string, e.g. `/_localdynamo/clock`.
    package var path: String
    /// The query string's parameters (last one wins).
    package var query: [String: String]
    /// The request body (JSON when present).
    package var body: [UInt8]
    /// Values of `{name}` segments of the matched route.
    package var parameters: [String: String] = [:]

    package init(method: String, uri: String, body: [UInt8]) {
        self.method = method
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts[0])
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[String(halves[0])] = halves.count > 1 ? String(halves[1]) : ""
            }
        }
        self.query = query
        self.body = body
    }

    /// The body as a JSON object; an empty body is an empty object.
    /// - Throws: ``AdminError`` 400 when the body is not a JSON object.
    package func jsonObject() throws(AdminError) -> [String: JSONValue] {
        if body.isEmpty { return [:] }
        guard let value = try? JSONValue(parsing: body), case .object(let members) = value else {
            throw AdminError(status: 400, "The request body must be a JSON object")
        }
        return members
    }
}

/// An admin answer that is not 200: its status and a message, sent as `{"error": "…"}`.
package struct AdminError: Error, Sendable, Equatable {
    package var status: Int
    package var message: String

    package init(status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// What admin handlers work with.
package struct AdminEnvironment: Sendable {
    package let engine: DynamoEngine
    /// Where blocking work (SQLite) runs; handlers must not block their task's thread.
    package let threadPool: NIOThreadPool
    package let logger: Logger
    /// The faults every DynamoDB request is checked against.
    package let faults: FaultInjector
    /// The request counters `/metrics` reports; `nil` when the server keeps none.
    package var metrics: ServerMetrics?

    package init(
        engine: DynamoEngine, threadPool: NIOThreadPool, logger: Logger, faults: FaultInjector = FaultInjector(),
        metrics: ServerMetrics? = nil
    ) {
        self.metrics = metrics
        self.engine = engine
        self.threadPool = threadPool
        self.logger = logger
        self.faults = faults
    }

    /// Runs blocking work on the thread pool.
    package func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await threadPool.runIfActive(work)
    }
}

/// One endpoint of the admin API.
package struct AdminRoute: Sendable {
    package typealias Handler = @Sendable (AdminRequest, AdminEnvironment) async throws -> JSONValue
    /// A handler that answers text of its own content type (`/metrics`).
    package typealias TextHandler = @Sendable (AdminRequest, AdminEnvironment) async throws -> String

    /// The HTTP method it answers.
    package var method: String
    /// The path, whose `{name}` segments match any one segment (`/_localdynamo/snapshots/{name}/restore`).
    package var path: String
    /// One line for README's table and the 404 listing.
    package var summary: String
    package var handler: Handler
    /// Set for routes that answer text rather than JSON: the text and its content type.
    package var text: (contentType: String, handler: TextHandler)?
    /// Served to callers on any host, not only loopback (read-only routes such as `/metrics`).
    package var openToAll = false

    package init(_ method: String, _ path: String, _ summary: String, handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.summary = summary
        self.handler = handler
    }

    /// A route that answers text of `contentType`.
    package init(
        _ method: String, _ path: String, _ summary: String, contentType: String, openToAll: Bool,
        text: @escaping TextHandler
    ) {
        self.init(method, path, summary) { _, _ in .null }
        self.text = (contentType, text)
        self.openToAll = openToAll
    }

    /// The `{name}` values when `path` matches this route's path.
    func match(_ path: String) -> [String: String]? {
        let pattern = self.path.split(separator: "/")
        let actual = path.split(separator: "/")
        guard pattern.count == actual.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, segment) in zip(pattern, actual) {
            if expected.hasPrefix("{"), expected.hasSuffix("}") {
                parameters[String(expected.dropFirst().dropLast())] = String(segment)
            } else if expected != segment {
                return nil
            }
        }
        return parameters
    }
}

/// Routes `/_localdynamo/…` requests to their handlers and renders their JSON answers.
///
/// Answers are JSON: the handler's value with 200, or `{"error": "…"}` with the status of the
/// ``AdminError`` it threw (404 for an unknown path, 405 for a known path with another method,
/// 403 for a caller that is not on loopback unless `--admin-from-anywhere`). Any other error is
/// a 500 whose type is logged.
package struct AdminRouter: Sendable {
    /// The path prefix of every admin endpoint.
    package static let prefix = "/_localdynamo/"

    package let routes: [AdminRoute]
    package let environment: AdminEnvironment
    /// Whether callers from other hosts than loopback are served.
    package let allowRemote: Bool

    package init(routes: [AdminRoute], environment: AdminEnvironment, allowRemote: Bool) {
        self.routes = routes
        self.environment = environment
        self.allowRemote = allowRemote
    }

    /// Whether a request URI belongs to the admin API.
    static func handles(uri: String) -> Bool {
        uri.utf8.starts(with: prefix.utf8) || uri == "/_localdynamo" || uri == "/metrics" || uri.hasPrefix("/metrics?")
    }

    /// The content type of JSON answers.
    package static let jsonContentType = "application/json"

    /// Answers one request: status, body and its content type.
    package func respond(to request: AdminRequest, fromLoopback: Bool) async -> (status: Int, body: [UInt8], contentType: String) {
        do {
            var request = request
            let candidates = routes.compactMap { route in route.match(request.path).map { (route, $0) } }
            let chosen = candidates.first(where: { $0.0.method == request.method })
            guard fromLoopback || allowRemote || chosen?.0.openToAll == true else {
                throw AdminError(status: 403, "The admin API answers loopback callers only (serve --admin-from-anywhere to change that)")
            }
            guard !candidates.isEmpty else {
                throw AdminError(status: 404, "No admin endpoint at \(request.path); see README's admin API table")
            }
            guard let (route, parameters) = chosen else {
                let allowed = candidates.map(\.0.method).joined(separator: ", ")
                throw AdminError(status: 405, "\(request.path) answers \(allowed), not \(request.method)")
            }
            request.parameters = parameters
            if let text = route.text {
                return (200, Array(try await text.handler(request, environment).utf8), text.contentType)
            }
            let value = try await route.handler(request, environment)
            return (200, Array(value.serialized.utf8), Self.jsonContentType)
        } catch let error as AdminError {
            return (error.status, Self.errorBody(error.message), Self.jsonContentType)
        } catch let error as DynamoError {
            return (error.code.httpStatus, Self.errorBody(error.message ?? "\(error.code)"), Self.jsonContentType)
        } catch {
            environment.logger.error(
                "admin request failed",
                metadata: [
                    "path": "\(request.path)", "error_type": "\(type(of: error))",
                ])
            return (500, Self.errorBody("Internal error"), Self.jsonContentType)
        }
    }

    static func errorBody(_ message: String) -> [UInt8] {
        Array(JSONValue.object(["error": .string(message)]).serialized.utf8)
    }
}
