import Testing
@testable import DynamoEngine

/// Namespace names (access keys, regions) never leave the data directory as file names.
struct NamespaceFileNameTests {
    @Test(arguments: ["../x", "/", "\0", "..", ".", "a/../../b", "\\..\\x", "x\u{2028}y", "~root", String(repeating: "é", count: 300)])
    func hostileNamesStayInside(_ namespace: String) {
        let name = DynamoEngine.fileName(for: namespace + "_us-east-1")
        #expect(!name.contains("/") && !name.contains("\\") && !name.contains("\0") && !name.contains(".."))
        #expect(!name.hasPrefix(".") && !name.isEmpty)
        #expect(name.utf8.count <= 200)
        let path = DynamoEngine.databasePath(directory: "/data", namespace: namespace)
        #expect(path.hasPrefix("/data/") && !path.dropFirst(6).contains("/"))
    }

    @Test func longNamesStayDistinct() {
        let first = DynamoEngine.fileName(for: String(repeating: "a", count: 300) + "1")
        let second = DynamoEngine.fileName(for: String(repeating: "a", count: 300) + "2")
        #expect(first != second)
        #expect(DynamoEngine.fileName(for: "us-east-1") == "us-east-1")
    }
}
