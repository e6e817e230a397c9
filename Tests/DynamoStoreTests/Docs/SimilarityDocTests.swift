import DynamoStore
import Testing

/// The similarity section of docs/store.md is the code that compiles here, and it answers as shown.
struct SimilarityDocTests {
    @Test func docShowsTheCompiledSnippet() throws {
        let snippet = try StoreDocSnippet("similarity", file: "SimilarityDocSnippet.swift", section: "Fetching by similarity")
        #expect(snippet.block == snippet.code)
    }

    @Test func nearestMemoriesAnswersAsTheDocSays() async throws {
        try await withStore(types: [Memory.self]) { fixture in
            let context = fixture.context()
            let vectors: [(String, String, [Float])] = [
                ("a", "ana", [1, 0, 0]), ("b", "ana", [0, 1, 0]), ("c", "ana", [1, 1, 0]), ("d", "ana", [-3, 0, 0]), ("e", "bo", [1, 0, 0]),
            ]
            for (id, owner, embedding) in vectors {
                let memory = Memory(context: context)
                memory.id = id
                memory.owner = owner
                memory.embedding = embedding
            }
            try await context.save()
            #expect(try await nearestMemories(in: fixture.context()) == ["a 0.0", "c 1.0", "b 1.4142135381698608"])
        }
    }
}
