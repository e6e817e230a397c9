import Foundation
import Synchronization

/// Corrects the signing time when this machine's clock is off: after a request refused for its
/// time (`InvalidSignatureException` "Signature expired", `RequestTimeTooSkewed`, ...) whose
/// response's `Date` header is more than 4 minutes from the local clock, the difference is
/// kept and added to every later signature, and the refused request is signed again and sent
/// once more (without counting as a retry), as the AWS SDKs for Go and Java do.
final class ClockSkew: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    /// Error codes that refuse a request for its time.
    static let codes: Set<String> = [
        "RequestTimeTooSkewed", "RequestExpired", "RequestInTheFuture", "InvalidSignatureException",
        "SignatureDoesNotMatch", "AuthFailure",
    ]
    /// A difference smaller than this is not skew the service refuses.
    static let threshold: TimeInterval = 240

    /// Seconds to add to the local clock.
    var seconds: TimeInterval { offset.withLock { $0 } }

    /// Learns the skew from a refused response.
    ///
    /// - Parameters:
    ///   - code: The error code.
    ///   - response: The response, with its `Date` header.
    ///   - localTime: The local clock now (without the correction).
    /// - Returns: Whether the correction changed, so the request should be signed again.
    func learn(code: String, response: HTTPResponse, localTime: Date) -> Bool {
        guard Self.codes.contains(code), let header = response.header("date"), let serverTime = Self.parseHTTPDate(header) else {
            return false
        }
        let skew = serverTime.timeIntervalSince(localTime)
        return offset.withLock { current in
            guard abs(skew - current) > Self.threshold else { return false }
            current = skew
            return true
        }
    }

    /// Parses an HTTP date (`Wed, 25 Nov 2026 12:43:45 GMT`, RFC 9110's IMF-fixdate).
    static func parseHTTPDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (0..<24).contains(clock[0]), (0..<60).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        // Days from 1970-01-01 to the date (the civil-from-days inverse, proleptic Gregorian).
        let month = monthIndex + 1
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]))
    }
}
