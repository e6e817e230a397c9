import Foundation
import Testing
@testable import DynamoClient

/// How many transfers the default transport (libcurl's worker pool, or URLSession's connection limit) runs at once.
struct WorkerPoolTests {
    /// After an idle period (one warm-up request leaves one idle thread), a burst of requests
    /// to a slow endpoint must run on `maximumConnections` threads at once, not queue behind
    /// the single idle thread. The burst's answers wait until that many were in flight at once
    /// (then 300 ms more, so a transport running more than its maximum shows it), never on a
    /// fixed delay a loaded machine could outrun.
    @Test(arguments: [(burst: 6, maximum: 4), (burst: 3, maximum: 8)])
    func burstAfterIdleRunsInParallel(burst: Int, maximum: Int) async throws {
        let parallel = min(burst, maximum)
        try await withFakeServer([.ok(), .afterConcurrent(parallel, limit: .seconds(30), .delay(.milliseconds(300), .ok()))]) { server in
            let transport = DynamoClient.defaultTransport(maximumConnections: maximum)
            let timeouts = HTTPTimeouts(connect: .seconds(5), request: .seconds(30))
            _ = try await transport.send(HTTPRequest(method: "GET", url: server.url), timeouts: timeouts)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<burst {
                    group.addTask {
                        try await transport.send(HTTPRequest(method: "GET", url: server.url), timeouts: timeouts).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: burst))
            #expect(server.requests.count == burst + 1)
            #expect(server.peakConcurrentRequests == parallel)
        }
    }

    #if canImport(CCurl)
        /// A caller's next request, sent as soon as the previous one returned, goes to the thread
        /// that served it (counted as available before the caller is resumed): the transport opens
        /// no more connections than requests were ever in flight.
        @Test func callersReuseTheirThreadsConnections() async throws {
            try await withFakeServer([.ok()]) { server in
                let transport = CurlTransport(maximumConnections: 16)
                let timeouts = HTTPTimeouts(connect: .seconds(5), request: .seconds(30))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<3 {
                        group.addTask {
                            for _ in 0..<15 {
                                _ = try await transport.send(HTTPRequest(method: "GET", url: server.url), timeouts: timeouts)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(server.requests.count == 45)
                #expect(server.requestConnectionCount <= 3)
            }
        }
    #endif
}
