#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DynamoEngine {
    /// Compacts every LocalDynamo database file in `directory` (`VACUUM`, then `PRAGMA
    /// optimize`), before a server opens them: DynamoDB Local's `-optimizeDbBeforeStartup`.
    /// Files that are not LocalDynamo's are left alone.
    ///
    /// - Returns: the files compacted.
    package static func compactDatabases(in directory: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        var compacted: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() where name.hasSuffix(".db") {
            let path = "\(directory)/\(name)"
            guard (try? DynamoDBLocalFile.kind(of: path)) == .localDynamo else { continue }
            try Database(path: path, region: "us-east-1").compact()
            compacted.append(path)
        }
        return compacted
    }
}
