import Foundation
import Testing

/// A snippet of docs/store.md kept as compiled code: the lines between `// BEGIN docs/store.md <name>`
/// and `// END docs/store.md <name>` of a file in this folder, and the first Swift block of the
/// doc's section.
struct StoreDocSnippet {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The compiled code, between the markers.
    let code: String
    /// The doc's first Swift block of the section.
    let block: String

    /// Reads the snippet `name` of `file` and the section headed `## <section>` of docs/store.md.
    init(_ name: String, file: String, section: String) throws {
        let snippet = try String(contentsOf: Self.root.appendingPathComponent("Tests/DynamoStoreTests/Docs/\(file)"), encoding: .utf8)
        let lines = snippet.components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex(of: "// BEGIN docs/store.md \(name)"))
        let end = try #require(lines.firstIndex(of: "// END docs/store.md \(name)"))
        code = lines[(begin + 1)..<end].joined(separator: "\n")

        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/store.md"), encoding: .utf8)
        let text = try #require(doc.components(separatedBy: "\n## \(section)\n").dropFirst().first)
        block = try #require(text.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "\n```").first)
    }
}
