/// Which browser origins get a CORS answer (`Access-Control-Allow-Origin`).
///
/// DynamoDB itself answers every request that carries an `Origin` with
/// `Access-Control-Allow-Origin: *`; DynamoDB Local's `-cors` narrows that to a comma-separated
/// allow-list (its default, `*`, is DynamoDB's behaviour).
public enum CORSPolicy: Sendable, Equatable {
    /// Every origin: `Access-Control-Allow-Origin: *` (DynamoDB's answer, the default).
    case anyOrigin
    /// Only these origins, each echoed back when a request comes from it; other origins get no
    /// CORS headers, so the browser refuses the answer.
    case origins([String])

    /// The policy of DynamoDB Local's `-cors ORIGINS` value: a comma-separated allow-list, where
    /// `*` (alone or in the list) allows every origin.
    public init(allowList: String) {
        let origins = allowList.split(separator: ",").map { part in
            String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }.filter { !$0.isEmpty }
        self = origins.isEmpty || origins.contains("*") ? .anyOrigin : .origins(origins)
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, or `nil` when the
    /// request carried no `Origin` or its origin is not allowed.
    func allowedOrigin(for origin: String?) -> String? {
        guard let origin else { return nil }
        switch self {
        case .anyOrigin: return "*"
        case .origins(let allowed): return allowed.contains(origin) ? origin : nil
        }
    }
}
