import ArgumentParser
import DynamoServer

/// `serve`'s flags for the consistency model (see docs/testing-with-localdynamo.md).
struct ConsistencyFlags: ParsableArguments {
    @Option(
        name: .customLong("consistency"),
        help: ArgumentHelp(
            "exact (every read sees the last write at once) or service (eventually consistent reads, GSIs, streams, TTL and statuses lag as in DynamoDB, on the server clock; POST /_localdynamo/consistency/settle ends the lag).",
            valueName: "MODE"))
    var mode: String = "exact"

    @Option(
        name: .customLong("consistency-seed"),
        help: ArgumentHelp("Seed of the service model's draws: the same seed and writes give the same answers.", valueName: "N"))
    var seed: UInt64 = 0

    @Option(
        name: .customLong("consistency-stale-probability"),
        help: ArgumentHelp("Share of writes an eventually consistent read may not see yet, 0 to 1.", valueName: "P"))
    var staleProbability: Double = LocalDynamoServer.Consistency().staleProbability

    @Option(
        name: .customLong("consistency-window"),
        help: ArgumentHelp("Longest lag of a stale read, a GSI entry or a stream record, in seconds.", valueName: "SECONDS"))
    var window: Double = LocalDynamoServer.Consistency().window

    @Option(
        name: .customLong("consistency-ttl-delay"),
        help: ArgumentHelp("Longest delay of a TTL deletion past the item's expiry, in seconds.", valueName: "SECONDS"))
    var ttlDelay: Double = LocalDynamoServer.Consistency().ttlDelay

    func validate() throws {
        guard LocalDynamoServer.Consistency.Mode(rawValue: mode) != nil else {
            throw ValidationError("--consistency takes exact or service.")
        }
        guard staleProbability.isFinite, (0...1).contains(staleProbability) else {
            throw ValidationError("--consistency-stale-probability takes a number from 0 to 1.")
        }
        for (flag, value) in [("--consistency-window", window), ("--consistency-ttl-delay", ttlDelay)] where !value.isFinite || value < 0 {
            throw ValidationError("\(flag) takes a number of seconds >= 0.")
        }
    }

    var options: LocalDynamoServer.Consistency {
        LocalDynamoServer.Consistency(
            mode: LocalDynamoServer.Consistency.Mode(rawValue: mode) ?? .exact, seed: seed,
            staleProbability: staleProbability, window: window, ttlDelay: ttlDelay)
    }
}
