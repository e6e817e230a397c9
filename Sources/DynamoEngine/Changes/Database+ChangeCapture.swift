extension Database {
    /// Hands the running write's item changes to every consumer, inside the same transaction
    /// (called by `write` after its body, before the commit). A consumer that throws rolls the
    /// whole write back.
    ///
    /// Consumers add one line here each; they look at `state.itemChanges` (in write order) and
    /// write what they keep with `state.connection`.
    func consumeItemChanges(_ state: inout WriterState) throws {
        guard !state.itemChanges.isEmpty else { return }
        try writeStreamRecords(&state)
        try recordPointInTimeChanges(&state)
        queueReplication(state.itemChanges)
        try queueKinesisRecords(state.itemChanges)
        // Last: a consumer that throws rolls the write back, and with it what is kept here.
        if consistency.isActive { state.committedChanges.append(contentsOf: state.itemChanges) }
    }
}
