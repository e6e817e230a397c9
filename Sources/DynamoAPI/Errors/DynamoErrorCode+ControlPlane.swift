extension DynamoErrorCode {
    /// A resource policy is missing, or `ExpectedRevisionId` does not match the current one.
    public static let policyNotFound = Self(rawValue: "PolicyNotFoundException")
    /// A 2017.11.29 global table that does not exist (DescribeGlobalTable and friends).
    public static let globalTableNotFound = Self(rawValue: "GlobalTableNotFoundException")
    /// CreateGlobalTable for a name that is already a global table.
    public static let globalTableAlreadyExists = Self(rawValue: "GlobalTableAlreadyExistsException")
    /// UpdateGlobalTable adding a region that is already in the replication group.
    public static let replicaAlreadyExists = Self(rawValue: "ReplicaAlreadyExistsException")
    /// UpdateGlobalTable or UpdateGlobalTableSettings naming a region outside the group.
    public static let replicaNotFound = Self(rawValue: "ReplicaNotFoundException")
}
