import DynamoHTTP
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportError {
    /// Classifies a `URLSession` failure into the kinds libcurl's codes map to (see
    /// ``CurlTransport``), so the retry logic treats both transports alike: unreachable or
    /// refusing hosts and TLS handshakes that fail are `connectionFailed`, broken or empty
    /// replies `connectionLost`, certificate problems `tls`, malformed URLs `invalidRequest`.
    init(urlError error: any Error) {
        guard let urlError = error as? URLError else {
            self.init(.other, "\(error)")
            return
        }
        self.init(Self.kind(of: urlError.code), urlError.localizedDescription)
        urlErrorCode = urlError.code.rawValue
    }

    /// The kind of a `URLError` code.
    static func kind(of code: URLError.Code) -> Kind {
        switch code {
        case .cannotFindHost, .dnsLookupFailed, .cannotConnectToHost, .notConnectedToInternet,
            .internationalRoamingOff, .dataNotAllowed, .callIsActive, .secureConnectionFailed:
            .connectionFailed
        case .timedOut:
            .timedOut
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource,
            .cannotDecodeRawData, .cannotDecodeContentData, .resourceUnavailable:
            .connectionLost
        case .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
            .tls
        case .badURL, .unsupportedURL, .dataLengthExceedsMaximum, .requestBodyStreamExhausted:
            .invalidRequest
        default:
            .other
        }
    }
}
