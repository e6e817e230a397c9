import DynamoClient
import DynamoEmbedded
import DynamoURLSession
import Foundation

/// How the clients a test builds for a ``TestEndpoint`` reach its server, as
/// `LOCALDYNAMO_TEST_TRANSPORT` says: over the socket (`socket`, the default) or in process
/// (`embedded`, an ``DynamoEmbedded/EmbeddedTransport`` bound to the same server).
///
/// `scripts/test` runs the client's and the store's suites once more with
/// `LOCALDYNAMO_TEST_TRANSPORT=embedded`; a test that is about the socket itself sends through
/// ``TestEndpoint/socketTransport`` instead.
public enum TestTransport: String, Sendable, CaseIterable {
    /// A socket transport: DynamoClient's default, or as `DYNAMOCLIENT_TRANSPORT` says (see
    /// ``defaultSocketTransport(environment:)``).
    case socket
    /// The in-process transport: no socket, no HTTP.
    case embedded

    /// The choice `LOCALDYNAMO_TEST_TRANSPORT` (`socket` or `embedded`, any case) makes;
    /// `socket` when it is unset or names neither.
    ///
    /// - Parameter environment: The environment to read (default: the process's).
    public static func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) -> TestTransport {
        environment["LOCALDYNAMO_TEST_TRANSPORT"].flatMap { TestTransport(rawValue: $0.lowercased()) } ?? .socket
    }

    /// This process's choice, read once.
    public static let current = resolved()

    /// The socket transport tests use: DynamoClient's default, except that
    /// `DYNAMOCLIENT_TRANSPORT=urlsession` gives a `URLSessionTransport` on every platform (on
    /// Linux DynamoClient does not link it, so its own default never does), so `scripts/test`
    /// can run the client's and the store's suites over URLSession there too.
    ///
    /// - Parameter environment: The environment to read (default: the process's).
    public static func defaultSocketTransport(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> any HTTPTransport {
        let requested = environment["DYNAMOCLIENT_TRANSPORT"].map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if requested == DynamoClient.TransportChoice.urlsession.rawValue { return URLSessionTransport() }
        return DynamoClient.defaultTransport(environment: environment)
    }
}

extension TestEndpoint {
    /// The transport a test's client of this server sends through: ``socketTransport``, or with
    /// `LOCALDYNAMO_TEST_TRANSPORT=embedded` an ``DynamoEmbedded/EmbeddedTransport`` to this
    /// same server (see ``TestTransport``). Each read makes a new one.
    public var transport: any HTTPTransport {
        switch TestTransport.current {
        case .socket: socketTransport
        case .embedded: EmbeddedTransport(server: server)
        }
    }

    /// A new socket transport (``TestTransport/defaultSocketTransport(environment:)``), whatever
    /// `LOCALDYNAMO_TEST_TRANSPORT` says: for tests about the connection itself.
    public var socketTransport: any HTTPTransport { TestTransport.defaultSocketTransport() }

    /// A client of this server through ``transport``: `DynamoClient.local(port:host:region:transport:)`
    /// with this endpoint's port.
    ///
    /// ```swift
    /// try await withTestServer { endpoint in
    ///     let client = endpoint.client()
    ///     _ = try await client.listTables(ListTablesInput())
    /// }
    /// ```
    ///
    /// - Parameter region: The region to sign for (default `us-east-1`).
    /// - Returns: A client with fixed dummy credentials that reads nothing from the environment.
    public func client(region: String = "us-east-1") -> DynamoClient {
        DynamoClient.local(port: port, host: host, region: region, transport: transport)
    }
}
