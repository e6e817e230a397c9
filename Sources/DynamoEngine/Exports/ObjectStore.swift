// Full Foundation: directory walking and file attributes are not in FoundationEssentials.
import Foundation

/// Where exports write and imports read: S3's bucket-and-key model, behind a small protocol so
/// an S3-over-HTTP store can sit beside the directory one.
package protocol ObjectStore: Sendable {
    /// Whether the bucket exists.
    func bucketExists(_ bucket: String) -> Bool
    /// Writes (or replaces) one object.
    func put(bucket: String, key: String, bytes: [UInt8]) throws(ObjectStoreError)
    /// Reads one object.
    func get(bucket: String, key: String) throws(ObjectStoreError) -> [UInt8]
    /// The keys of every object whose key starts with `prefix`, in key order.
    func keys(bucket: String, prefix: String) throws(ObjectStoreError) -> [String]
    /// Writes one object of an export, with the request's encryption and expected bucket owner.
    func put(bucket: String, key: String, bytes: [UInt8], options: ObjectWriteOptions) throws(ObjectStoreError)
    /// The store that signs for `region` (a namespace's region; S3 requests are signed for the
    /// region of the request that started the job). A directory store is the same everywhere.
    func forRegion(_ region: String) -> any ObjectStore
}

extension ObjectStore {
    package func put(bucket: String, key: String, bytes: [UInt8], options: ObjectWriteOptions) throws(ObjectStoreError) {
        try put(bucket: bucket, key: key, bytes: bytes)
    }

    package func forRegion(_ region: String) -> any ObjectStore { self }
}

/// What an export asks of the objects it writes: `S3SseAlgorithm` / `S3SseKmsKeyId` (sent as
/// `x-amz-server-side-encryption` headers) and `S3BucketOwner` (`x-amz-expected-bucket-owner`,
/// so S3 refuses a bucket of another account).
package struct ObjectWriteOptions: Sendable, Equatable {
    package var serverSideEncryption: String?
    package var kmsKeyID: String?
    package var expectedBucketOwner: String?

    package init(serverSideEncryption: String? = nil, kmsKeyID: String? = nil, expectedBucketOwner: String? = nil) {
        self.serverSideEncryption = serverSideEncryption
        self.kmsKeyID = kmsKeyID
        self.expectedBucketOwner = expectedBucketOwner
    }
}

/// Why an object-store call failed, with the S3 error code DynamoDB reports as `FailureCode`.
package struct ObjectStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The S3 error code (`NoSuchBucket`, `NoSuchKey`, `AccessDenied` …).
    package var code: String
    package var message: String

    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "\(code): \(message)" }
}

/// `s3://bucket/key` as the file `root/bucket/key` (`serve --s3-dir`): a bucket is a directory
/// that must exist, keys may contain `/` (subdirectories are made as needed).
package struct DirectoryObjectStore: ObjectStore {
    package let root: String

    package init(root: String) {
        self.root = root
    }

    package func bucketExists(_ bucket: String) -> Bool {
        var isDirectory: ObjCBool = false
        return Self.isSafe(bucket) && FileManager.default.fileExists(atPath: "\(root)/\(bucket)", isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    package func put(bucket: String, key: String, bytes: [UInt8]) throws(ObjectStoreError) {
        let path = try path(bucket: bucket, key: key)
        do {
            let directory = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ObjectStoreError(code: "AccessDenied", message: "Cannot write \(path): \(error)")
        }
    }

    package func get(bucket: String, key: String) throws(ObjectStoreError) -> [UInt8] {
        let path = try path(bucket: bucket, key: key)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ObjectStoreError(code: "NoSuchKey", message: "The specified key does not exist.")
        }
        return Array(data)
    }

    package func keys(bucket: String, prefix: String) throws(ObjectStoreError) -> [String] {
        _ = try path(bucket: bucket, key: "")
        let base = "\(root)/\(bucket)"
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var keys: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "\(base)/\(relative)", isDirectory: &isDirectory),
                !isDirectory.boolValue, relative.hasPrefix(prefix)
            else { continue }
            keys.append(relative)
        }
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private func path(bucket: String, key: String) throws(ObjectStoreError) -> String {
        guard bucketExists(bucket) else {
            throw ObjectStoreError(code: "NoSuchBucket", message: "The specified bucket does not exist")
        }
        guard !key.split(separator: "/").contains(where: { $0 == ".." }) else {
            throw ObjectStoreError(code: "AccessDenied", message: "Key \(key) leaves its bucket")
        }
        return "\(root)/\(bucket)/\(key)"
    }

    private static func isSafe(_ bucket: String) -> Bool {
        !bucket.isEmpty && bucket != "." && bucket != ".." && !bucket.contains("/")
    }
}
