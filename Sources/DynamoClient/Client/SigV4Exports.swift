// The signer, `AWSCredentials` and `AmzDate` live in `AWSSigV4`, shared with the server (which
// verifies signatures and signs its own calls to S3 and Kinesis); an app that imports
// `DynamoClient` sees them as before.
@_exported import AWSSigV4

extension HTTPRequest: SigV4Signable {}
