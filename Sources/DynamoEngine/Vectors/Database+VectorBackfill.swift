import DynamoAPI

/// The background build of a vector index added by UpdateTable to a table with items: the
/// index's entries made from the items chunk by chunk, each chunk its own short write
/// transaction, as a global index's backfill (`Database+IndexBuilds`).
///
/// While it runs the index is CREATING with `Backfilling: true`
/// (``VectorIndexDefinition/building``) and refuses searches. Writes meanwhile maintain it like
/// any vector index (`ItemStore` always works with the current definition), and a chunk
/// writes each item's entry over whatever the index holds for it: an entry a write made is the
/// one the chunk makes from the same item, so a chunk keeps it and adds only the entries
/// missing: none is lost or counted twice, and the index's live statistics count each entry
/// as it is written. The last chunk clears `building` in its own transaction. Nothing about
/// progress is persisted: a server stopped mid-build starts it over when it opens the
/// database again (`resumeIndexWork`), which is safe for the same reason.
extension Database {
    /// Items indexed per vector backfill transaction: about 1.5 MB of entries at 384
    /// dimensions, so a write waits for at most one chunk.
    static let vectorBackfillChunkSize = 1024

    /// Indexes the next chunk of items after `cursor` into the building vector index `building`
    /// of `table` in one write transaction, and clears its `building` mark (in the same
    /// transaction) when the items run out. Abandoned when the table was deleted (even if
    /// created again since), the index deleted, or a snapshot restored since the cursor was
    /// handed out (the restore started the build over).
    func vectorBackfillStep(
        table: TableDefinition, index building: VectorIndexDefinition, after cursor: BackfillCursor?,
        limit: Int = Database.vectorBackfillChunkSize
    ) throws -> BackfillStep {
        let name = table.name
        return try write { state in
            // The index the step was started for, still building.
            let isBuilt = { (index: VectorIndexDefinition) in
                index.name == building.name && index.storageNumber == building.storageNumber && index.building == true
            }
            guard let (found, generation) = backfillTarget(table, after: cursor), let position = found.vectorIndexes.firstIndex(where: isBuilt)
            else { return .abandoned }
            var definition = found
            let store = VectorStore(
                table: definition, index: definition.vectorIndexes[position], connection: state.connection, ledger: state.statistics)
            if let last = try store.fill(after: cursor?.key, limit: limit) {
                return .more(after: BackfillCursor(key: last, generation: generation))
            }
            definition.vectorIndexes[position].building = nil
            try saveDefinition(definition, connection: state.connection, isNew: false)
            state.cacheAfterCommit(definition, named: name)
            return .finished
        }
    }
}
