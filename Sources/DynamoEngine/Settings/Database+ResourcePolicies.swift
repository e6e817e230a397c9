import DynamoAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Database {
    /// The largest policy document DynamoDB accepts: 20 KB, whitespace counted.
    static let maximumPolicyBytes = 20 * 1024

    /// The table a resource-policy ARN names (a table or one of its streams), or DynamoDB's error
    /// for the ARN's form (messages as the service words them). The account id is not checked:
    /// a local server belongs to no account.
    private func policyTable(_ arn: String) throws(DynamoError) -> String {
        guard arn.hasPrefix("arn:") else { throw EngineMessages.arnMustStartWithArn(arn: arn) }
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[1] == "aws", parts[2] == "dynamodb", String(parts[3]) == region else {
            throw EngineMessages.invalidResourceArn(arn: arn)
        }
        let resource = parts[5].split(separator: "/", omittingEmptySubsequences: false)
        guard resource.count >= 2, resource[0] == "table", !resource[1].isEmpty else {
            throw EngineMessages.providedArnNotDynamoDBResource(arn: arn)
        }
        switch resource.count {
        case 2: break
        case 4 where resource[2] == "stream": break
        case 4 where resource[2] == "index":
            throw EngineMessages.invalidResourceArnProvidedOnly(arn: arn)
        default:
            throw EngineMessages.providedArnNotDynamoDBResource(arn: arn)
        }
        let name = String(resource[1])
        guard let definition = cachedDefinition(name) else {
            throw EngineMessages.requestedResourceNotFoundTable(name: name)
        }
        if resource.count == 4, definition.streamLabel != String(resource[3]) || definition.streamViewType == nil {
            throw EngineMessages.requestedResourceNotFoundStream(resource: resource, name: name)
        }
        return name
    }

    private static func policyNotFound(_ detail: String) -> DynamoError {
        EngineMessages.resourceBasedPolicyNotFound(detail: detail)
    }

    /// `PolicyNotFoundException` unless `expected` (an `ExpectedRevisionId`, `NO_POLICY` for
    /// "none yet") matches the current policy.
    private static func checkRevision(_ expected: String?, current: StoredPolicy?, table: String, arn: String) throws {
        guard let expected else { return }
        switch (expected == "NO_POLICY", current) {
        case (true, nil): return
        case (true, let current?):
            throw policyNotFound(
                "Requested policy update expecting none to be present for table \(table), but a policy exists with revision id \(current.revisionID)."
            )
        case (false, nil):
            throw policyNotFound(arn)
        case (false, let current?):
            guard current.revisionID != expected else { return }
            throw policyNotFound(
                "Requested update for policy with revision id \(expected), but the policy associated to target table \(table) has revision id \(current.revisionID)."
            )
        }
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
            try Self.checkRevision(input.expectedRevisionId, current: current, table: name, arn: input.resourceArn)
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

    /// DeleteResourcePolicy: removes the policy (`ExpectedRevisionId` must match if given) and
    /// answers its revision; without a policy (and no expected revision) it answers nothing, as
    /// DynamoDB does.
    package func deleteResourcePolicy(_ input: DeleteResourcePolicyInput) throws -> DeleteResourcePolicyOutput {
        let name = try policyTable(input.resourceArn)
        var revision: String?
        _ = try updateDefinition(named: name) { definition in
            var settings = definition.controlSettings
            let current = settings.policies?[input.resourceArn]
            try Self.checkRevision(input.expectedRevisionId, current: current, table: name, arn: input.resourceArn)
            guard let current else { return }
            revision = current.revisionID
            settings.policies?[input.resourceArn] = nil
            definition.controlSettings = settings
        }
        return DeleteResourcePolicyOutput(revisionId: revision)
    }

    /// A policy document must be a JSON object of at most 20 KB with a `Statement`.
    static func checkPolicyDocument(_ document: String) throws(DynamoError) {
        if document.utf8.count > maximumPolicyBytes {
            throw EngineMessages.policyDocumentSizeBytesExceeds(maximumPolicyBytes: maximumPolicyBytes)
        }
        let parsed = try? JSONValue(parsing: Array(document.utf8))
        if case .null? = parsed {
            throw EngineMessages.invalidPolicyDocumentNull
        }
        guard case .object(let members)? = parsed else {
            throw EngineMessages.invalidPolicyDocumentPolicyNot
        }
        guard let statement = members["Statement"] else {
            throw EngineMessages.invalidPolicyDocumentMissingRequired
        }
        switch statement {
        case .array(let statements) where statements.isEmpty: throw EngineMessages.invalidPolicyDocumentStatementEmpty
        case .object, .array: break
        default: throw EngineMessages.invalidPolicyDocumentStatementObject
        }
    }

    /// Revision ids are server-clock milliseconds, strictly increasing per resource.
    private static func nextRevision(after previous: String?, now: Double) -> String {
        var revision = Int64(now * 1000)
        if let previous = previous.flatMap(Int64.init), revision <= previous { revision = previous + 1 }
        return String(revision)
    }
}
