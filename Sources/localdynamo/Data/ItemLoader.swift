import ArgumentParser
import DynamoAPI
import DynamoClient

/// What to do with an entry that cannot be loaded (`--on-error`).
enum OnError: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Report it with its location and go on.
    case skip
    /// Report it and stop; nothing is written when a file has an unreadable entry.
    case fail
}

/// The load stopped at a bad entry (`--on-error fail`).
struct LoadFailure: Error, CustomStringConvertible {
    var description: String
}

/// Writes items read from files into one table through BatchWriteItem, 25 at a time, retrying
/// unprocessed items; a batch DynamoDB rejects is retried item by item so the rejected entry is
/// reported by its own location.
struct ItemLoader {
    let client: DynamoClient
    let table: String
    let onError: OnError
    /// Where problems are reported (standard error in the CLI).
    let report: (String) -> Void

    /// What a load did.
    struct Outcome {
        var written = 0
        var skipped = 0
    }

    /// Loads `entries` in order.
    /// - Throws: ``LoadFailure`` under `--on-error fail` (before writing anything when an entry
    ///   cannot be read; after the items before it when DynamoDB rejects one), or the client's
    ///   error when the server cannot be reached.
    func load(_ entries: [ItemEntry], progress: ProgressReporter?) async throws -> Outcome {
        var outcome = Outcome()
        var readable: [(location: String, item: [String: AttributeValue])] = []
        readable.reserveCapacity(entries.count)
        for entry in entries {
            switch entry.item {
            case .success(let item): readable.append((entry.location, item))
            case .failure(let error):
                if onError == .fail { throw LoadFailure(description: "\(error.description) (nothing was written; --on-error skip loads the rest)") }
                report("skipped \(error.description)")
                outcome.skipped += 1
            }
        }
        var start = 0
        while start < readable.count {
            let batch = Array(readable[start..<min(start + 25, readable.count)])
            start += batch.count
            do {
                try await write(batch.map(\.item))
                outcome.written += batch.count
            } catch let error as DynamoError where error.code == .validation {
                // Which entry? Put them one at a time.
                for entry in batch {
                    do {
                        _ = try await client.send(PutItemInput(tableName: table, item: entry.item))
                        outcome.written += 1
                    } catch let error as DynamoError where error.code == .validation || error.code == .resourceNotFound {
                        let problem = "\(entry.location): \(error.code.rawValue): \(error.message ?? "")"
                        if onError == .fail {
                            throw LoadFailure(description: "\(problem) (stopped after writing \(outcome.written) items)")
                        }
                        report("skipped \(problem)")
                        outcome.skipped += 1
                    }
                }
            }
            progress?.advance(by: batch.count)
        }
        return outcome
    }

    /// One BatchWriteItem and its retries until nothing is left unprocessed.
    private func write(_ items: [[String: AttributeValue]]) async throws {
        var requests = items.map { WriteRequest(putRequest: PutRequest(item: $0)) }
        var attempt = 0
        while !requests.isEmpty {
            let output = try await client.send(BatchWriteItemInput(requestItems: [table: requests]))
            requests = output.unprocessedItems?[table] ?? []
            if !requests.isEmpty {
                attempt += 1
                try await Task.sleep(for: .milliseconds(min(1000, 25 << min(attempt, 6))))
            }
        }
    }
}
