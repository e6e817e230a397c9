// client-bench: drives LocalDynamo (or any DynamoDB endpoint) with DynamoClient for a fixed time
// and prints one JSON line of results, for scripts/bench's client comparison with boto3
// (scripts/bench.d/boto3_bench.py does the same with boto3).
//
//   client-bench --endpoint http://127.0.0.1:8000 --operation get --concurrency 8 \
//       --seconds 3 --items 10000
//
// The table is the harness's `bench` table (pk S "p%08d", sk N 0..9, 10 items per partition).
// Every request must succeed; a failure ends the run with exit status 1.
import DynamoAPI
import DynamoClient
import DynamoURLSession
import Foundation

struct Options {
    var endpoint = "http://127.0.0.1:8000"
    var operation = "get"
    var concurrency = 1
    var seconds = 3.0
    var items = 10_000
    var table = "bench"

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let flag = iterator.next() {
            guard let value = iterator.next() else { throw Failure("missing value for \(flag)") }
            switch flag {
            case "--endpoint": endpoint = value
            case "--operation": operation = value
            case "--concurrency": concurrency = Int(value) ?? 1
            case "--seconds": seconds = Double(value) ?? 3
            case "--items": items = Int(value) ?? 10_000
            case "--table": table = value
            default: throw Failure("unknown option \(flag)")
            }
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One worker's tally: request latencies in microseconds.
struct Tally: Sendable {
    var latencies: [Double] = []
}

let payload = String(repeating: "abcdefghij", count: 12)

func partitionKey(_ index: Int) -> AttributeValue { .s(String(format: "p%08d", index / 10)) }

func request(_ client: DynamoClient, _ options: Options, worker: Int, sequence: Int) async throws {
    switch options.operation {
    case "get":
        let index = Int.random(in: 0..<options.items)
        let output = try await client.getItem(
            GetItemInput(
                tableName: options.table, key: ["pk": partitionKey(index), "sk": .n(DynamoNumber(index % 10))]))
        guard output.item != nil else { throw Failure("GetItem found no item for \(index)") }
    case "put":
        // New keys above the preloaded range, distinct per worker.
        let index = options.items + 10_000_000 * (worker + 1) + sequence
        _ = try await client.putItem(
            PutItemInput(
                tableName: options.table,
                item: [
                    "pk": partitionKey(index), "sk": .n(DynamoNumber(index % 10)), "data": .s(payload),
                    "n": .n(DynamoNumber(index)),
                ]))
    case "query":
        let partition = Int.random(in: 0..<(options.items / 10))
        let output = try await client.query(
            QueryInput(
                tableName: options.table, keyConditionExpression: "pk = :p",
                expressionAttributeValues: [":p": partitionKey(partition * 10)]))
        guard output.count == 10 else { throw Failure("Query returned \(output.count ?? 0) items, not 10") }
    default:
        throw Failure("unknown operation \(options.operation) (get, put, query)")
    }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// The whole run; returns the exit status.
func run() async -> Int32 {
    let options: Options
    do {
        options = try Options(Array(CommandLine.arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("client-bench: \(error)\n".utf8))
        return 2
    }
    let url = URL(string: options.endpoint)
    // DYNAMOCLIENT_TRANSPORT=urlsession measures URLSession on Linux too, where DynamoClient's
    // default never is (it does not link FoundationNetworking there).
    let urlSession = ProcessInfo.processInfo.environment["DYNAMOCLIENT_TRANSPORT"]?.lowercased() == "urlsession"
    let client = DynamoClient.local(
        port: url?.port ?? 8000, host: url?.host ?? "127.0.0.1", transport: urlSession ? URLSessionTransport() : nil)
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(options.seconds * 1000))
    let started = clock.now
    do {
        let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
            for worker in 0..<options.concurrency {
                group.addTask {
                    var tally = Tally()
                    var sequence = 0
                    while clock.now < deadline {
                        let begin = clock.now
                        try await request(client, options, worker: worker, sequence: sequence)
                        let elapsed = clock.now - begin
                        tally.latencies.append(
                            Double(elapsed.components.attoseconds) / 1e12
                                + Double(elapsed.components.seconds) * 1e6)
                        sequence += 1
                    }
                    return tally
                }
            }
            var all: [Tally] = []
            for try await tally in group { all.append(tally) }
            return all
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let latencies = tallies.flatMap(\.latencies).sorted()
        let result: [String: Any] = [
            "client": "DynamoClient", "operation": options.operation, "concurrency": options.concurrency,
            "requests": latencies.count, "seconds": seconds, "rps": Double(latencies.count) / seconds,
            "p50_us": percentile(latencies, 0.5), "p99_us": percentile(latencies, 0.99),
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
        return 0
    } catch {
        FileHandle.standardError.write(Data("client-bench: \(error)\n".utf8))
        return 1
    }
}

// The main thread waits on a semaphore instead of running an async top level (which parks it in
// `dispatch_main`, where valgrind 3.19 crashes), so `valgrind --tool=callgrind client-bench ...`
// can count the client's instructions per request.
Task.detached {
    let status = await run()
    exit(status)
}
DispatchSemaphore(value: 0).wait()
