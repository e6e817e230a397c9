import DynamoAPI
import Foundation
import Synchronization
import Testing
@testable import DynamoClient

/// Where requests go when no endpoint is configured, compared case by case with botocore's own
/// resolver of DynamoDB's endpoint rules (the pinned botocore's `endpoint-rule-set-1.json`):
/// regions of every partition, FIPS and dual-stack, the account id modes, credentials with and
/// without an account, tables named by name and by ARN (this region's, another's, a malformed
/// one), batches and the vector-search host.
struct EndpointRulesTests {
    struct Case: Sendable {
        var region: String
        var fips: Bool
        var dualStack: Bool
        var mode: AccountIDEndpointMode?
        var account: String?
        var request: Request
    }

    /// The request a case sends, with the parameters botocore's resolver reads from it.
    enum Request: Sendable, CaseIterable {
        case listTables, getByName, getByARN, getByOtherRegionARN, getByMalformedARN, batchByARN, searchByName, searchByARN, backupARN

        func arn(region: String) -> String? {
            switch self {
            case .getByARN, .batchByARN, .searchByARN: "arn:aws:dynamodb:\(region):222222222222:table/T"
            case .getByOtherRegionARN: "arn:aws:dynamodb:ap-south-2:222222222222:table/T"
            case .getByMalformedARN: "arn:aws:dynamodb:\(region):evil.example:table/T"
            case .backupARN: "arn:aws:dynamodb:\(region):333333333333:table/T/backup/01700000000000-abcdefgh"
            case .listTables, .getByName, .searchByName: nil
            }
        }

        var isSearch: Bool { self == .searchByName || self == .searchByARN }

        func send(_ client: DynamoClient, region: String) async throws {
            let table = arn(region: region) ?? "T"
            switch self {
            case .listTables: _ = try await client.listTables(ListTablesInput())
            case .getByName, .getByARN, .getByOtherRegionARN, .getByMalformedARN:
                _ = try await client.getItem(GetItemInput(tableName: table, key: ["k": .s("a")]))
            case .batchByARN:
                _ = try await client.batchWriteItem(
                    BatchWriteItemInput(requestItems: [table: [WriteRequest(deleteRequest: DeleteRequest(key: ["k": .s("a")]))]]))
            case .searchByName, .searchByARN:
                _ = try await client.searchVectors(
                    SearchVectorsInput(tableName: table, indexName: "idx", searchVector: [.n(DynamoNumber(1))], topK: 1))
            case .backupARN: _ = try await client.describeBackup(DescribeBackupInput(backupArn: table))
            }
        }
    }

    static var cases: [Case] {
        var cases: [Case] = []
        let regions = ["us-east-1", "eu-west-2", "us-gov-west-1", "us-gov-east-1", "cn-north-1", "cn-northwest-1", "us-iso-east-1", "eusc-de-east-1"]
        for region in regions {
            for (fips, dualStack) in [(false, false), (true, false), (false, true), (true, true)] {
                for mode in [nil, AccountIDEndpointMode.preferred, .disabled, .required] {
                    for account in [nil, "123456789012", "bad.account"] {
                        for request in Request.allCases {
                            cases.append(Case(region: region, fips: fips, dualStack: dualStack, mode: mode, account: account, request: request))
                        }
                    }
                }
            }
        }
        return cases
    }

    /// Records the URL of each request and answers `{}`.
    final class Recorder: HTTPTransport {
        let urls = Mutex<[String]>([])
        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            urls.withLock { $0.append(request.url) }
            return HTTPResponse(status: 200, headers: ["x-amz-crc32": "\(FakeHTTPServer.crc32(Array("{}".utf8)))"], body: Array("{}".utf8))
        }
    }

    /// This client's answer for a case: the URL without its final `/`, or the error's text.
    static func ours(_ testCase: Case) async -> String {
        var environment = ["HOME": "/home/tester"]
        if testCase.fips { environment["AWS_USE_FIPS_ENDPOINT"] = "true" }
        if testCase.dualStack { environment["AWS_USE_DUALSTACK_ENDPOINT"] = "true" }
        if let mode = testCase.mode { environment["AWS_ACCOUNT_ID_ENDPOINT_MODE"] = mode.rawValue }
        let recorder = Recorder()
        var configuration = DynamoClient.Configuration(
            region: testCase.region, credentials: AWSCredentials(accessKeyID: "AKID", secretAccessKey: "s", accountID: testCase.account))
        configuration.sources = ConfigurationSources(environment: environment, files: [:])
        configuration.transport = recorder
        var retry = RetryConfiguration()
        retry.maximumAttempts = 1
        configuration.retry = retry
        do {
            let client = try DynamoClient(configuration: configuration)
            try await testCase.request.send(client, region: testCase.region)
        } catch let error as DynamoClientError {
            guard case .invalidConfiguration(let message) = error else { return "\(error)" }
            return "error: " + message
        } catch {
            return "\(error)"
        }
        let url = recorder.urls.withLock { $0.first } ?? "none"
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    @Test func everyCaseResolvesAsBotocoreResolvesIt() async throws {
        let cases = Self.cases
        var lines: [String] = []
        for testCase in cases {
            var parameters: [String: JSONValue] = [
                "Region": .string(testCase.region), "UseFIPS": .bool(testCase.fips), "UseDualStack": .bool(testCase.dualStack),
                "AccountIdEndpointMode": .string((testCase.mode ?? .preferred).rawValue),
            ]
            if let account = testCase.account { parameters["AccountId"] = .string(account) }
            if let arn = testCase.request.arn(region: testCase.region) {
                parameters[testCase.request == .batchByARN ? "ResourceArnList" : "ResourceArn"] =
                    testCase.request == .batchByARN ? .array([.string(arn)]) : .string(arn)
            } else if testCase.request != .listTables {
                parameters["ResourceArn"] = .string("T")
            }
            if testCase.request.isSearch { parameters["IsSearchOperation"] = .bool(true) }
            var writer = JSONWriter()
            writer.write(JSONValue.object(parameters))
            lines.append(String(decoding: writer.bytes, as: UTF8.self))
        }
        let script = """
            import json, sys
            import botocore.session
            from botocore.endpoint_provider import EndpointProvider
            loader = botocore.session.get_session().get_component('data_loader')
            provider = EndpointProvider(loader.load_service_model('dynamodb', 'endpoint-rule-set-1'), loader.load_data('partitions'))
            for line in sys.stdin:
                try:
                    print(provider.resolve_endpoint(**json.loads(line)).url)
                except Exception as error:
                    print('error: ' + str(error))
            """
        let theirs = try PythonRunner.run(script: script, input: lines.joined(separator: "\n") + "\n").split(separator: "\n").map(String.init)
        #expect(theirs.count == cases.count)
        var mismatches = 0
        for (testCase, botocore) in zip(cases, theirs) {
            let mine = await Self.ours(testCase)
            if mine != botocore {
                mismatches += 1
                if mismatches <= 20 { Issue.record("\(testCase): ours \(mine), botocore \(botocore)") }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(cases.count) cases differ")
    }
}
