import DynamoAPI
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
@testable import DynamoClient

/// moto's server (`python3 -m moto.server`), an implementation of DynamoDB we did not write,
/// started on a free loopback port for one test and terminated afterwards.
enum MotoServer {
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A free loopback port below Linux's ephemeral range (32768 and up), bound and released;
    /// moto binds it right after. Below that range no server that binds port 0 (the in-process
    /// LocalDynamo servers of parallel tests) can be handed the same port meanwhile and answer
    /// the readiness probe in moto's place.
    static func freePort() throws -> Int {
        for _ in 0..<100 {
            let port = Int.random(in: 20_000..<32_768)
            let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(holder) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) == 0 }
            }
            if bound { return port }
        }
        throw StartFailure(description: "no free port")
    }

    /// Starts moto, waits until it answers `ListTables`, runs `body` with its URL, stops it.
    ///
    /// A start that fails (the port was taken in between) is retried on another port, twice.
    static func with<T>(_ body: (String) async throws -> T) async throws -> T {
        var lastError: any Error = StartFailure(description: "not started")
        for _ in 0..<3 {
            let port = try freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", "\(port)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let url = "http://127.0.0.1:\(port)/"
            do {
                try await waitUntilReady(url: url, process: process)
            } catch {
                lastError = error
                stop(process)
                continue
            }
            do {
                let result = try await body(url)
                stop(process)
                return result
            } catch {
                stop(process)
                throw error
            }
        }
        throw lastError
    }

    private static func waitUntilReady(url: String, process: Process) async throws {
        let client = try TestClients.client(
            endpoint: url, retry: .disabled,
            timeouts: HTTPTimeouts(connect: .seconds(1), request: .seconds(2)))
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw StartFailure(description: "moto exited with \(process.terminationStatus)") }
            if (try? await client.listTables(ListTablesInput())) != nil { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw StartFailure(description: "moto did not answer within 30 s")
    }

    /// Kills moto with SIGKILL: its state is in memory only, and SIGTERM may be blocked in the
    /// signal mask a test runner's thread hands to the child.
    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
