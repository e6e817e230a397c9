#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DynamoEngine {
    /// Opens the namespaces stored in the database directory that no request has opened since
    /// the server started, so background work (the TTL sweeper) reaches them too: a namespace
    /// otherwise opens on its first request, and after a restart its expired items would wait
    /// for one.
    ///
    /// Only files whose name gives back the namespace's region are opened: `<region>.db` per
    /// region, `<key>_<region>.db` per access key. The shared namespace takes its region from
    /// its first request, and a file name changed by ``fileName(for:)`` cannot name its
    /// namespace, so those still wait for a request. Files of DynamoDB Local are never touched.
    package func openStoredNamespaces() throws {
        guard case .directory(let directory) = storage, namespaceMode != .shared else { return }
        for namespace in try Self.storedNamespaces(in: directory, excluding: Set(openDatabases.keys)) {
            let accessKeyID: String?
            let region: String
            switch namespaceMode {
            case .perRegion:
                (accessKeyID, region) = (nil, namespace)
            case .perAccessKey:
                guard let separator = namespace.lastIndex(of: "_") else { continue }
                accessKeyID = String(namespace[..<separator])
                region = String(namespace[namespace.index(after: separator)...])
            case .shared:
                continue
            }
            guard Self.looksLikeRegion(region) else { continue }
            _ = try database(accessKeyID: accessKeyID, region: region)
        }
    }

    /// The namespaces with a LocalDynamo database file in `directory`, by the name the file
    /// was made from (`<namespace>.db`, or `<namespace>.localdynamo.db` beside a DynamoDB
    /// Local file of the same name), leaving out those in `excluded` without reading their files.
    static func storedNamespaces(in directory: String, excluding excluded: Set<String> = []) throws -> [String] {
        var namespaces: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
            let namespace: String
            if file.hasSuffix(".localdynamo.db") {
                namespace = String(file.dropLast(".localdynamo.db".count))
                guard !excluded.contains(namespace) else { continue }
            } else if file.hasSuffix(".db") {
                namespace = String(file.dropLast(".db".count))
                guard !excluded.contains(namespace),
                    (try? DynamoDBLocalFile.kind(of: "\(directory)/\(file)")) == .localDynamo
                else { continue }
            } else {
                continue
            }
            // A name the file-name mapping changed is not the namespace's own.
            guard !namespace.isEmpty, fileName(for: namespace) == namespace,
                databasePath(directory: directory, namespace: namespace) == "\(directory)/\(file)"
            else { continue }
            namespaces.append(namespace)
        }
        return namespaces
    }

    /// `us-east-1`, `eu-central-2`, `us-gov-west-1`: lowercase words and a number, joined by `-`.
    static func looksLikeRegion(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 3, let last = parts.last, !last.isEmpty, last.allSatisfy(\.isASCII), last.allSatisfy(\.isNumber)
        else { return false }
        return parts.dropLast().allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isLowercase } }
    }
}
