import DynamoAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Database {
    /// The largest policy document DynamoDB accepts: 20 KB, whitespace counted.
    static let maximumPolicyBytes = 20 * 1024

    /// The table a resource-policy ARN names (a table or one of its streams), or DynamoDB's error.
    private func policyTable(_ arn: String) throws(DynamoError) -> String {
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", parts[2] == "dynamodb", parts[5].hasPrefix("table/"),
              !parts[5].contains("/index/") else {
            throw DynamoError.validation("Invalid ResourceArn provided as input \(arn)")
        }
        let name = TableReference.name(from: arn)
        guard String(parts[3]) == region, let definition = cachedDefinition(name) else {
            throw DynamoError(.resourceNotFound, "Requested resource not found: ResourceArn: \(arn) not found")
        }
        let resource = parts[5].split(separator: "/", omittingEmptySubsequences: false)
        if resource.count == 4, resource[2] == "stream",
           definition.streamLabel != String(resource[3]) || definition.streamViewType == nil {
            throw DynamoError(.resourceNotFound, "Requested resource not found: ResourceArn: \(arn) not found")
        }
        return name
    }

    private static func policyNotFound(_ arn: String) -> DynamoError {
        DynamoError(.policyNotFound, "Resource-based policy not found for the provided ResourceArn: \(arn)")
    }

    /// PutResourcePolicy: attaches a JSON policy document to a table or stream. Idempotent (the
    /// same document keeps its revision); `ExpectedRevisionId` must match the current revision
    /// (`NO_POLICY`: there must be none), else `PolicyNotFoundException`.
    package func putResourcePolicy(_ input: PutResourcePolicyInput) throws -> PutResourcePolicyOutput {
        let name = try policyTable(input.resourceArn)
        try Self.checkPolicyDocument(input.policy)
        let now = clock.now()
        var revision = ""
        _ = try updateDefinition(named: name) { definition in
            var settings = definition.controlSettings
            var policies = settings.policies ?? [:]
            let current = policies[input.resourceArn]
            if let expected = input.expectedRevisionId {
                let matches = expected == "NO_POLICY" ? current == nil : current?.revisionID == expected
                guard matches else { throw Self.policyNotFound(input.resourceArn) }
            }
            if let current, current.document == input.policy {
                revision = current.revisionID
                return
            }
            revision = Self.nextRevision(after: current?.revisionID, now: now)
            policies[input.resourceArn] = StoredPolicy(document: input.policy, revisionID: revision)
            settings.policies = policies
            definition.controlSettings = settings
        }
        return PutResourcePolicyOutput(revisionId: revision)
    }

    /// GetResourcePolicy: the document and revision attached to a table or stream.
    package func getResourcePolicy(_ input: GetResourcePolicyInput) throws -> GetResourcePolicyOutput {
        let name = try policyTable(input.resourceArn)
        guard let policy = try table(named: name).controlSettings.policies?[input.resourceArn] else {
            throw Self.policyNotFound(input.resourceArn)
        }
        return GetResourcePolicyOutput(policy: policy.document, revisionId: policy.revisionID)
    }

    /// DeleteResourcePolicy: removes the policy (`ExpectedRevisionId` must match if given).
    package func deleteResourcePolicy(_ input: DeleteResourcePolicyInput) throws -> DeleteResourcePolicyOutput {
        let name = try policyTable(input.resourceArn)
        var revision = ""
        _ = try updateDefinition(named: name) { definition in
            var settings = definition.controlSettings
            guard let current = settings.policies?[input.resourceArn],
                  input.expectedRevisionId == nil || input.expectedRevisionId == current.revisionID else {
                throw Self.policyNotFound(input.resourceArn)
            }
            revision = current.revisionID
            settings.policies?[input.resourceArn] = nil
            definition.controlSettings = settings
        }
        return DeleteResourcePolicyOutput(revisionId: revision)
    }

    /// A policy document must be a JSON object of at most 20 KB with a `Statement`.
    static func checkPolicyDocument(_ document: String) throws(DynamoError) {
        if document.utf8.count > maximumPolicyBytes {
            throw DynamoError.validation(
                "Policy document size \(document.utf8.count) bytes exceeds the maximum allowed size of \(maximumPolicyBytes) bytes")
        }
        guard case .object(let members)? = try? JSONValue(parsing: Array(document.utf8)) else {
            throw DynamoError.validation("Invalid policy document: the policy is not a valid JSON object")
        }
        guard let statement = members["Statement"] else {
            throw DynamoError.validation("Invalid policy document: Missing required field Statement")
        }
        switch statement {
        case .object, .array: break
        default: throw DynamoError.validation("Invalid policy document: Statement must be an object or an array")
        }
    }

    /// Revision ids are server-clock milliseconds, strictly increasing per resource.
    private static func nextRevision(after previous: String?, now: Double) -> String {
        var revision = Int64(now * 1000)
        if let previous = previous.flatMap(Int64.init), revision <= previous { revision = previous + 1 }
        return String(revision)
    }
}
