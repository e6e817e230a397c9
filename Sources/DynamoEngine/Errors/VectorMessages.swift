import DynamoAPI

// EngineMessages, continued: vector indexes and SearchVectors. Where the developer guide quotes a
// message it is its text; the rest follow the service's answers as recorded by other emulators'
// conformance suites (see docs/compatibility.md, NOTES for SearchVectors).

// MARK: - Vectors/VectorIndexValidation.swift

extension EngineMessages {
    /// A vector index on a PROVISIONED table (CreateTable, or UpdateTable switching such a table).
    static let vectorIndexesOnlyOnDemand = DynamoError.validation(
        "One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables")

    /// More than five vector indexes in a CreateTable.
    static let vectorIndexCountExceedsCreate = DynamoError.validation(
        "One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of \(VectorIndexRules.maximumPerTable)")

    /// A sixth vector index added by UpdateTable.
    static let vectorIndexCountExceedsUpdate = DynamoError(
        .limitExceeded,
        "Subscriber limit exceeded: Number of vector secondary indexes exceeds per-table limit of \(VectorIndexRules.maximumPerTable)")

    /// A search-schema attribute without an attribute definition.
    static let searchSchemaAttributeUndefined = DynamoError.validation(
        "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute definitions")

    /// More than one `HASH` element in a search schema (wording chosen in the family of the key
    /// schema's messages; not documented).
    static let searchSchemaTooManyHash = DynamoError.validation(
        "One or more parameter values were invalid: SearchSchema can contain at most one HASH element")

    /// The same attribute twice in a search schema (wording chosen; not documented).
    static func searchSchemaDuplicate(_ name: String) -> DynamoError {
        .validation("One or more parameter values were invalid: Duplicate attribute in SearchSchema: \(name)")
    }

    /// Dimensions outside 1…4096.
    static let vectorDimensionsOutOfRange = DynamoError.validation(
        "One or more parameter values were invalid: Number of dimensions must be between 1 and \(VectorIndexRules.maximumDimensions) inclusive.")

    /// The vector attribute declared in AttributeDefinitions.
    static func vectorAttributeDefined(_ name: String) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Conflicting attribute definition for '\(name)'. An attribute cannot be defined in AttributeDefinitions when used as a VectorAttribute."
        )
    }

    /// Two vector indexes over one attribute with different dimensions.
    static func vectorDimensionsDisagree(_ name: String) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Conflicting attribute definition for '\(name)'. All VectorIndexes on the same vector attribute must use the same dimensions."
        )
    }

    /// UpdateTable making a key attribute of the table the vector attribute.
    static func vectorAttributeRedefinesKey(_ name: String, type: String, keyType: String, dimensions: Int) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Attributes cannot be redefined. Please check that your attribute has the same type as previously defined. Existing schema: Schema:[SchemaElement: key{\(name):\(type):\(keyType)}] New schema: VectorIndexSchema:[VectorAttribute: key{\(name):L:\(dimensions)}]"
        )
    }

    /// An UpdateTable `VectorIndexUpdates` element with both or neither of Create and Delete
    /// (the GSI family's words).
    static let vectorIndexUpdateOneAction = DynamoError.validation(
        "One or more parameter values were invalid: One of Create or Delete must be specified in a VectorIndexUpdate")
}

// MARK: - Vectors/VectorEntry.swift

extension EngineMessages {
    /// A write whose vector attribute is not a list.
    static func vectorNotAList(_ attribute: String, index: String) -> DynamoError {
        .validation(
            "One or more parameter values were invalid. Invalid type for parameter \(attribute), Expected: 32-bit floating point number list IndexName: \(index)"
        )
    }

    /// A write whose vector has an element that is not a number a 32-bit float holds.
    static func vectorElementType(_ attribute: String, position: Int, actual: String, index: String) -> DynamoError {
        .validation(
            "One or more parameter values were invalid. Invalid type for parameter \(attribute)[\(position)], Expected: 32-bit floating point number, Actual: \(actual). IndexName: \(index)"
        )
    }

    /// A write whose vector has the wrong number of elements.
    static func vectorSize(_ attribute: String, expected: Int, actual: Int, index: String) -> DynamoError {
        .validation(
            "One or more parameter values were invalid. Invalid size for parameter \(attribute), Expected: \(expected), Actual: \(actual) IndexName: \(index)"
        )
    }
}

// MARK: - Vectors/Database+SearchVectors.swift

extension EngineMessages {
    /// TopK above 100.
    static func topKOutOfRange(_ topK: Int) -> DynamoError {
        .validation("Provided TopK value '\(topK)' is out of valid range. The value must be between 1 and \(VectorIndexRules.maximumTopK) inclusive")
    }

    /// A search vector element that is not a finite 32-bit number.
    static let searchVectorInvalidValues = DynamoError.validation(
        "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute")

    /// A search vector of another length than the index's dimensions.
    static func searchVectorDimension(_ given: Int, index: Int) -> DynamoError {
        .validation("Input search vector dimension \(given) does not match vector index dimension \(index)")
    }

    /// A search while the index is CREATING (backfilling).
    static func cannotSearchBackfilling(_ name: String) -> DynamoError {
        .validation("Cannot search backfilling vector index: \(name)")
    }

    /// No SearchConditionExpression on an index with a HASH element.
    static let searchConditionRequired = DynamoError.validation(
        "SearchConditionExpression must be provided when SearchSchema has a HASH key")

    /// A SearchConditionExpression with an operator other than `=` (or `AND`).
    static let searchConditionComparator = DynamoError.validation(
        "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression")

    /// A SearchConditionExpression naming an attribute outside the search schema.
    static func searchConditionOutsideSchema(_ name: String) -> DynamoError {
        .validation("SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: \(name)")
    }

    /// A SearchConditionExpression that leaves out the HASH element.
    static let searchConditionMissingHash = DynamoError.validation(
        "SearchConditionExpression must have all HASH attributes in configured SearchSchema")

    /// The same attribute twice in a SearchConditionExpression (wording chosen in the family of
    /// Query's key-condition messages; not documented).
    static func searchConditionRepeated(_ name: String) -> DynamoError {
        .validation("Invalid SearchConditionExpression: An attribute can be compared at most once; attribute: \(name)")
    }

    /// A ProjectionExpression naming an attribute the index does not project (Query's words for
    /// an index read of an unprojected attribute).
    static let searchProjectionOutsideIndex = DynamoError.validation(
        "One or more parameter values were invalid: ProjectionExpression can only contain attributes projected into the vector index")

    /// A response over 16 MB (wording chosen; not documented).
    static let searchResponseTooLarge = DynamoError.validation(
        "SearchVectors response exceeds the 16 MB limit; use a narrower ProjectionExpression or a smaller TopK")

    /// Query or Scan on a vector index (PartiQL's measured wording, with the operation named).
    static func operationNotOnVectorIndex(_ operation: String) -> DynamoError {
        .validation("\(operation) operation not supported on this index type")
    }
}
