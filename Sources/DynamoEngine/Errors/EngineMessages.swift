import DynamoAPI

/// The engine's DynamoDB messages, word for word: each sentence is written here once and the
/// operations throw these, so no message is built in several places.
enum EngineMessages {
    /// An item (put, import, batch or transaction put) over 400 KB.
    static let itemTooLarge = DynamoError.validation("Item size has exceeded the maximum allowed size")
    /// An update whose measured size is over 400 KB (see `UpdatePlan.measuredSize(writing:)`).
    static let updatedItemTooLarge =
        DynamoError.validation("Item size to update has exceeded the maximum allowed size")
    /// PutItem and DeleteItem with a `ReturnValues` other than `NONE` and `ALL_OLD`.
    static let returnValuesAllOldOrNone = DynamoError.validation("ReturnValues can only be ALL_OLD or NONE")
    /// The same key twice in one BatchGetItem table or one BatchWriteItem.
    static let duplicateKeys = DynamoError.validation("Provided list of item keys contains duplicates")

    /// A PartiQL SELECT on a secondary index that filters on attributes the index does not project.
    static func indexDoesNotProjectFilter(index: String, attributes: [String]) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Secondary index \(index) does not project "
                + "one or more filter attributes: [\(attributes.joined(separator: ", "))]")
    }

    /// A PartiQL SELECT on a global secondary index that selects attributes it does not project.
    static func globalIndexDoesNotProject(index: String, attributes: [String]) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Global secondary index \(index) does not project "
                + "[\(attributes.joined(separator: ", "))]")
    }
}
