import Foundation
import Testing
@testable import DynamoClient

/// How many transfers the default transport (libcurl's worker pool, or URLSession's connection limit) runs at once.
struct WorkerPoolTests {
    /// After an idle period (one warm-up request leaves one idle thread), a burst of requests
    /// to a slow endpoint must run on `maximumConnections` threads at once, not queue behind
    /// the single idle thread.
    @Test(arguments: [(burst: 6, maximum: 4), (burst: 3, maximum: 8)])
    func burstAfterIdleRunsInParallel(burst: Int, maximum: Int) async throws {
        try await withFakeServer([.ok(), .delay(.milliseconds(700), .ok())]) { server in
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
            #expect(server.peakConcurrentRequests == min(burst, maximum))
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
