import DynamoAPI
import NIOCore

/// A request body as the dispatcher receives it: the input ``RequestFastDecoder`` read straight
/// from the bytes, or else the body's JSON tree for the generic decoder.
///
/// The server tries the fast decoder (every operation, ``RequestFastDecoder/operations``) before it
/// parses a body; when it answers, no `JSONValue` tree is built unless something asks for
/// ``json``, which nothing on the server does: throttling, fault rules and the request log read
/// what they need from the typed input (``tableNames``, the row's touches).
package struct DynamoRequestBody: Sendable {
    /// The input decoded from the bytes, when the fast decoder took the request.
    package let decoded: (any DynamoShape)?
    private let parsed: JSONValue
    /// The body's bytes, when at hand (never copied): ``json`` parses them when the fast decoder
    /// read the body, and PartiQL inputs reread them in document order.
    private let bytes: ByteBuffer?

    /// A body parsed into a tree (the generic path).
    ///
    /// - Parameters:
    ///   - json: the tree.
    ///   - source: the bytes it was parsed from, if at hand (kept, never copied).
    package init(json: JSONValue, source: ByteBuffer? = nil) {
        self.decoded = nil
        self.parsed = json
        self.bytes = source
    }

    /// A body the fast decoder read into `decoded`; `bytes` are kept for ``json``.
    package init(decoded: any DynamoShape, bytes: ByteBuffer) {
        self.decoded = decoded
        self.parsed = .null
        self.bytes = bytes
    }

    /// The tables the request names, for the request log: from the input the fast decoder read
    /// (``TableNaming``; none for an input that names none), else from the JSON tree. Never
    /// parses the body again.
    package var tableNames: [String] {
        guard let decoded else { return FaultInjector.tables(in: parsed) }
        return (decoded as? any TableNaming)?.tableNames ?? []
    }

    /// The body as a JSON tree (parsed now if the fast decoder read it; such bytes are valid JSON).
    package var json: JSONValue {
        guard decoded != nil, let bytes else { return parsed }
        return (try? JSONValue(parsing: bytes.readableBytesView)) ?? .null
    }

    /// The body parsed again keeping its member order, made only when asked (an invalid PartiQL
    /// parameter); `nil` without the bytes.
    package var orderedDocument: (@Sendable () -> JSONValue?)? {
        guard let bytes else { return nil }
        return { try? JSONValue(parsingWithMemberOrder: bytes.readableBytesView) }
    }
}

extension DynamoShape {
    /// The input of a request: the fast decoder's value when it read this shape, else
    /// ``DynamoShape/decodeRequest(_:)`` of the JSON tree (every DynamoDB error as before).
    static func decodeRequest(_ body: DynamoRequestBody) throws(DynamoError) -> Self {
        if let decoded = body.decoded as? Self { return decoded }
        return try decodeRequest(body.json, orderedDocument: readsParametersInOrder ? body.orderedDocument : nil)
    }
}
