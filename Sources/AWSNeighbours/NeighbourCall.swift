import AWSSigV4
import Foundation
import OutgoingHTTP

/// One signed call to a neighbour service: signs with SigV4 for the service and region, sends
/// it through libcurl on the calling thread, and reads AWS's error code and message from an
/// error answer (S3's XML `<Code>` / `<Message>`, or a JSON `__type` / `message`).
struct NeighbourCall {
    var service: String
    var region: String
    var credentials: AWSCredentials

    /// The answer, or the transport failure.
    func send(_ request: SigV4Request) -> Result<OutgoingResponse, OutgoingHTTPError> {
        let signer = SigV4Signer(service: service, region: region)
        let signed =
            service == "s3"
            ? signer.signS3(request, credentials: credentials, date: Date())
            : signer.sign(request, credentials: credentials, date: Date())
        return OutgoingHTTP.perform(signed)
    }

    /// AWS's error code and message of a failed answer.
    static func error(of response: OutgoingResponse) -> (code: String, message: String) {
        let text = String(decoding: response.body, as: UTF8.self)
        if let code = XMLText.first("Code", in: text) {
            return (code, XMLText.first("Message", in: text) ?? "")
        }
        if let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let type = (object["__type"] ?? object["code"]) as? String
        {
            let code = type.split(separator: "#").last.map(String.init) ?? type
            return (code, (object["message"] ?? object["Message"]) as? String ?? "")
        }
        switch response.status {
        case 404: return ("NotFound", "Not Found")
        case 403: return ("AccessDenied", "Access Denied")
        default: return ("HTTP\(response.status)", text)
        }
    }
}

/// The little XML reading S3's answers need: the text of elements by name, entities decoded.
enum XMLText {
    /// The text of every `<name>…</name>`, in document order.
    static func all(_ name: String, in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(name)>") {
            guard let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) else { break }
            found.append(decode(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return found
    }

    /// The text of the first `<name>…</name>`.
    static func first(_ name: String, in text: String) -> String? { all(name, in: text).first }

    /// `s` with the five predefined entities and numeric references replaced.
    static func decode(_ s: Substring) -> String {
        guard s.contains("&") else { return String(s) }
        var out = ""
        var index = s.startIndex
        while index < s.endIndex {
            if s[index] == "&", let semicolon = s[index...].firstIndex(of: ";") {
                let entity = s[s.index(after: index)..<semicolon]
                let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
                if let value = named[String(entity)] {
                    out += value
                } else if entity.hasPrefix("#x"), let code = UInt32(entity.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(code) {
                    out.unicodeScalars.append(scalar)
                } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += s[index...semicolon]
                }
                index = s.index(after: semicolon)
            } else {
                out.append(s[index])
                index = s.index(after: index)
            }
        }
        return out
    }

    /// `text` escaped for an element's content.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
