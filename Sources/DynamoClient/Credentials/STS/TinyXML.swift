import Foundation

/// Reads the text of a few named elements from a small XML document, such as STS's answers,
/// without FoundationXML (which iOS apps do not get on Linux and do not need elsewhere).
///
/// It understands what those answers contain: nested elements, attributes on start tags, the
/// XML declaration, comments, CDATA sections and the five predefined entities plus numeric
/// character references. It is not a validating parser: an element is found by its name.
///
/// ```swift
/// let xml = TinyXML("<A><B>x &amp; y</B></A>")
/// xml.text(of: "B", inside: "A")  // "x & y"
/// ```
struct TinyXML: Sendable {
    private let document: Substring

    /// Wraps a document.
    init(_ document: String) {
        self.document = document[...]
    }

    private init(_ document: Substring) {
        self.document = document
    }

    /// The decoded text of the first element named `name`, looked for inside the first element
    /// named `parent` when one is given; `nil` when there is none.
    func text(of name: String, inside parent: String? = nil) -> String? {
        var scope = self
        if let parent {
            guard let content = content(of: parent) else { return nil }
            scope = TinyXML(content)
        }
        return scope.content(of: name).map(Self.decode)
    }

    /// The raw content between `<name ...>` and its `</name>`; an empty element `<name/>` has
    /// empty content.
    private func content(of name: String) -> Substring? {
        var searchFrom = document.startIndex
        while let open = document[searchFrom...].range(of: "<" + name) {
            guard let after = document[open.upperBound...].first else { return nil }
            guard after == ">" || after == " " || after == "/" || after == "\t" || after == "\n" || after == "\r",
                let close = document[open.upperBound...].firstIndex(of: ">")
            else {
                searchFrom = open.upperBound
                continue
            }
            if document[document.index(before: close)] == "/" { return document[close..<close] }
            let contentStart = document.index(after: close)
            guard let end = document[contentStart...].range(of: "</" + name + ">") else { return nil }
            return document[contentStart..<end.lowerBound]
        }
        return nil
    }

    /// Text with CDATA unwrapped, comments dropped and entities decoded.
    static func decode(_ raw: Substring) -> String {
        var output = ""
        var rest = raw
        while let first = rest.first {
            if rest.hasPrefix("<![CDATA["), let end = rest.range(of: "]]>") {
                output += rest[rest.index(rest.startIndex, offsetBy: 9)..<end.lowerBound]
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--"), let end = rest.range(of: "-->") {
                rest = rest[end.upperBound...]
            } else if first == "&", let semicolon = rest.firstIndex(of: ";"),
                let character = entity(rest[rest.index(after: rest.startIndex)..<semicolon])
            {
                output.append(character)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                output.append(first)
                rest = rest.dropFirst()
            }
        }
        return output
    }

    private static func entity(_ name: Substring) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap { Unicode.Scalar($0) }.map { Character($0) }
        }
    }
}
