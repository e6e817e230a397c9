// The transport's vocabulary (`HTTPRequest`, `HTTPResponse`, `HTTPTimeouts`, `HTTPTransport`,
// `TransportError`) lives in `DynamoHTTP`, shared with `DynamoURLSession`'s transport; an app that
// imports `DynamoClient` sees it as before.
@_exported import DynamoHTTP
