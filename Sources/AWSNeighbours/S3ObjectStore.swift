import AWSSigV4
import DynamoEngine
import Foundation
import OutgoingHTTP

/// The engine's ``ObjectStore`` over S3's REST API (`serve --s3-endpoint`): HeadBucket,
/// PutObject (a multipart upload past ``NeighbourSettings/multipartPartSize``), GetObject and
/// ListObjectsV2, signed with SigV4 (service `s3`, the payload's SHA-256 in
/// `x-amz-content-sha256`) for the region of the namespace the job runs in. Calls block the job
/// thread that makes them (export and import jobs run on their own queue).
///
/// S3's error codes come back as ``ObjectStoreError``s (`NoSuchBucket`, `AccessDenied` …), which
/// an export records as `S3NoSuchBucket`, `S3AccessDenied` … in its description.
package struct S3ObjectStore: ObjectStore {
    package let endpoint: String
    package let virtualHosted: Bool
    package let partSize: Int
    package let region: String
    let credentials: AWSCredentials

    package init(settings: NeighbourSettings, endpoint: String, region: String = "us-east-1") {
        self.endpoint = endpoint
        virtualHosted = settings.s3VirtualHosted
        partSize = settings.multipartPartSize
        self.region = region
        credentials = settings.credentials ?? NeighbourSettings.testCredentials
    }

    package func forRegion(_ region: String) -> any ObjectStore {
        S3ObjectStore(
            endpoint: endpoint, virtualHosted: virtualHosted, partSize: partSize,
            region: region, credentials: credentials)
    }

    private init(endpoint: String, virtualHosted: Bool, partSize: Int, region: String, credentials: AWSCredentials) {
        self.endpoint = endpoint
        self.virtualHosted = virtualHosted
        self.partSize = partSize
        self.region = region
        self.credentials = credentials
    }

    /// HeadBucket: only a 404 says no. An unreachable endpoint says yes here, so the job's
    /// first write reports why (`Cannot reach S3 at …`) instead of a missing bucket.
    package func bucketExists(_ bucket: String) -> Bool {
        guard let response = try? call("HEAD", bucket: bucket) else { return true }
        return response.status != 404
    }

    package func put(bucket: String, key: String, bytes: [UInt8]) throws(ObjectStoreError) {
        try put(bucket: bucket, key: key, bytes: bytes, options: ObjectWriteOptions())
    }

    package func put(bucket: String, key: String, bytes: [UInt8], options: ObjectWriteOptions) throws(ObjectStoreError) {
        var headers: [(name: String, value: String)] = []
        if let algorithm = options.serverSideEncryption { headers.append(("x-amz-server-side-encryption", algorithm)) }
        if let kmsKey = options.kmsKeyID { headers.append(("x-amz-server-side-encryption-aws-kms-key-id", kmsKey)) }
        let owner = options.expectedBucketOwner.map { [(name: "x-amz-expected-bucket-owner", value: $0)] } ?? []
        guard bytes.count > partSize else {
            try checked(call("PUT", bucket: bucket, key: key, headers: headers + owner, body: bytes))
            return
        }
        let created = try checked(call("POST", bucket: bucket, key: key, query: "uploads", headers: headers + owner))
        guard let uploadID = XMLText.first("UploadId", in: String(decoding: created.body, as: UTF8.self)) else {
            throw ObjectStoreError(code: "InternalError", message: "CreateMultipartUpload answered without an UploadId")
        }
        let upload = "uploadId=\(SigV4Encoding.encode(uploadID))"
        do {
            var parts = ""
            var number = 1
            for start in stride(from: 0, to: bytes.count, by: partSize) {
                let part = Array(bytes[start..<min(bytes.count, start + partSize)])
                let answer = try checked(
                    call(
                        "PUT", bucket: bucket, key: key, query: "partNumber=\(number)&\(upload)",
                        headers: owner, body: part))
                guard let etag = answer.headers["etag"] else {
                    throw ObjectStoreError(code: "InternalError", message: "UploadPart answered without an ETag")
                }
                parts += "<Part><PartNumber>\(number)</PartNumber><ETag>\(XMLText.escape(etag))</ETag></Part>"
                number += 1
            }
            let complete = Array("<CompleteMultipartUpload>\(parts)</CompleteMultipartUpload>".utf8)
            let answer = try checked(call("POST", bucket: bucket, key: key, query: upload, headers: owner, body: complete))
            // S3 may answer 200 with an error document once the upload has started.
            if let code = XMLText.first("Code", in: String(decoding: answer.body, as: UTF8.self)) {
                throw ObjectStoreError(code: code, message: XMLText.first("Message", in: String(decoding: answer.body, as: UTF8.self)) ?? "")
            }
        } catch let failure as ObjectStoreError {
            _ = try? call("DELETE", bucket: bucket, key: key, query: upload, headers: owner)
            throw failure
        } catch {
            throw ObjectStoreError(code: "InternalError", message: "\(error)")
        }
    }

    package func get(bucket: String, key: String) throws(ObjectStoreError) -> [UInt8] {
        try checked(call("GET", bucket: bucket, key: key)).body
    }

    package func keys(bucket: String, prefix: String) throws(ObjectStoreError) -> [String] {
        var keys: [String] = []
        var token: String?
        repeat {
            var query = "list-type=2&prefix=\(SigV4Encoding.encode(prefix))"
            if let token { query += "&continuation-token=\(SigV4Encoding.encode(token))" }
            let text = String(decoding: try checked(call("GET", bucket: bucket, query: query)).body, as: UTF8.self)
            keys += XMLText.all("Key", in: text)
            token = XMLText.first("IsTruncated", in: text) == "true" ? XMLText.first("NextContinuationToken", in: text) : nil
        } while token != nil
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The URL of a bucket or object: `endpoint/bucket/key` (path style) or `bucket.host/key`.
    func url(bucket: String, key: String?, query: String?) -> String {
        let encodedKey = key.map { "/" + SigV4Encoding.encode($0, keepSlash: true) } ?? "/"
        let suffix = query.map { "?\($0)" } ?? ""
        guard virtualHosted, let parts = URLParts(endpoint) else {
            return "\(endpoint)/\(SigV4Encoding.encode(bucket))\(key == nil ? "" : encodedKey)\(suffix)"
        }
        let port = parts.port.map { ":\($0)" } ?? ""
        return "\(parts.scheme)://\(bucket).\(parts.host)\(port)\(encodedKey)\(suffix)"
    }

    private func call(
        _ method: String, bucket: String, key: String? = nil, query: String? = nil,
        headers: [(name: String, value: String)] = [], body: [UInt8] = []
    ) throws(ObjectStoreError) -> OutgoingResponse {
        let request = SigV4Request(method: method, url: url(bucket: bucket, key: key, query: query), headers: headers, body: body)
        switch NeighbourCall(service: "s3", region: region, credentials: credentials).send(request) {
        case .success(let response): return response
        case .failure(let failure):
            throw ObjectStoreError(code: "InternalError", message: "Cannot reach S3 at \(endpoint): \(failure)")
        }
    }

    @discardableResult
    private func checked(_ response: OutgoingResponse) throws(ObjectStoreError) -> OutgoingResponse {
        guard !(200..<300).contains(response.status) else { return response }
        let (code, message) = NeighbourCall.error(of: response)
        throw ObjectStoreError(code: code, message: message.isEmpty ? code : message)
    }
}
