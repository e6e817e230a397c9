import Synchronization

extension SigV4Signer {
    /// The key derived from a secret for one day, region and service (SigV4's `kSigning`):
    /// four HMACs, the same for every request of that day.
    package func signingKey(secretAccessKey: String, day: String) -> [UInt8] {
        var key = HMACSHA256.authenticate(Array(day.utf8), key: Array("AWS4\(secretAccessKey)".utf8))
        key = HMACSHA256.authenticate(Array(region.utf8), key: key)
        key = HMACSHA256.authenticate(Array(service.utf8), key: key)
        return HMACSHA256.authenticate(Array("aws4_request".utf8), key: key)
    }

    /// The hex signature of a string to sign under a derived key.
    package static func signature(stringToSign: String, signingKey: [UInt8]) -> String {
        HMACSHA256.authenticate(Array(stringToSign.utf8), key: signingKey).hexString
    }
}

/// Derived signing keys by secret, day, region and service, so a server verifying many
/// requests of the same client derives each key once a day instead of once a request.
///
/// Bounded: past `limit` entries the cache starts over (keys are cheap to derive again).
package final class SigV4SigningKeyCache: Sendable {
    private struct Entry: Hashable {
        var secret: String
        var day: String
        var region: String
        var service: String
    }

    private let entries = Mutex<[Entry: [UInt8]]>([:])
    private let limit: Int

    /// A cache of at most `limit` keys.
    package init(limit: Int = 1024) {
        self.limit = max(1, limit)
    }

    /// The signing key of `signer`'s region and service for `day`, derived on first use.
    package func signingKey(_ signer: SigV4Signer, secretAccessKey: String, day: String) -> [UInt8] {
        let entry = Entry(secret: secretAccessKey, day: day, region: signer.region, service: signer.service)
        if let key = entries.withLock({ $0[entry] }) { return key }
        let key = signer.signingKey(secretAccessKey: secretAccessKey, day: day)
        entries.withLock { cached in
            if cached.count >= limit { cached.removeAll(keepingCapacity: true) }
            cached[entry] = key
        }
        return key
    }

    /// How many keys are cached (for tests).
    package var count: Int { entries.withLock { $0.count } }
}
