extension Database {
    /// What ``consistencyPending(now:)`` adds from the stream: per table, the stream records
    /// not readable yet at `now` and when the last becomes readable. Only records of the last
    /// window can wait, so only those are read; nothing at all in `exact` mode.
    func waitingStreamRecords(now: Double) throws -> [String: (count: Int, readableAt: Double)] {
        guard consistency.isActive else { return [:] }
        let window = consistency.settings.window
        return try read { connection in
            let statement = try connection.statement(
                """
                SELECT s.table_name, r.stream_id, r.sequence, r.created FROM stream_records r
                JOIN streams s ON s.id = r.stream_id WHERE r.created >= ?
                """)
            statement.bind(.real(now - window))
            defer { statement.reset() }
            var waiting: [String: (count: Int, readableAt: Double)] = [:]
            while try statement.step() {
                let table = statement.text(0)
                let readableAt = consistency.streamRecordReadableAt(
                    table: table, streamID: statement.int64(1), sequence: statement.int64(2), created: statement.double(3))
                guard readableAt > now else { continue }
                let known = waiting[table] ?? (0, readableAt)
                waiting[table] = (known.count + 1, max(known.readableAt, readableAt))
            }
            return waiting
        }
    }

    /// What is pending at `now`, per table: the model's item versions and index entries, and
    /// the stream records still waiting out their delay.
    package func consistencyPending(now: Double) throws -> [ConsistencyPending] {
        var pending = consistency.pending(now: now)
        for (table, waiting) in try waitingStreamRecords(now: now) {
            if let index = pending.firstIndex(where: { $0.table == table }) {
                pending[index].streamRecords = waiting.count
                pending[index].settlesAt = max(pending[index].settlesAt ?? waiting.readableAt, waiting.readableAt)
            } else {
                pending.append(ConsistencyPending(table: table, streamRecords: waiting.count, settlesAt: waiting.readableAt))
            }
        }
        return pending.sorted { $0.table < $1.table }
    }
}
