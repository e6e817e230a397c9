import DynamoAPI
import DynamoExpressions

/// DynamoDB's PartiQL error messages, in one place.
///
/// The wording follows the service's PartiQL front end (shared with DynamoDB Local) and what
/// peers' 2026 reports quote from the real service.
package enum PartiQLMessages {
    /// `ValidationException` "Statement wasn't well formed, can't be processed: <detail>".
    static func malformed(_ detail: String) -> DynamoError {
        .validation("Statement wasn't well formed, can't be processed: \(detail)")
    }

    static let unexpectedToken = malformed("Unexpected token")
    /// A token left over after a whole statement (`… WHERE pk = 1 foo`, `… = 1)`).
    static let leftoverToken = malformed("Unexpected token after expression")
    /// What the lexer cannot read (a `#`, an unterminated comment, a number literal whose
    /// exponent or scale does not fit 32 bits): the envelope with nothing after the colon.
    static let unreadable = malformed("")
    /// A number literal past DynamoDB's rules: the item layer's message and the literal's place
    /// in the constant around it (`… under root`, `… under root.m[1]`).
    static func numberLiteral(_ problem: DynamoError, place: String) -> DynamoError {
        .validation("\(problem.message ?? "") under root\(place)")
    }
    /// `AND` or `OR` with nothing after it.
    static let missingRightOperand = malformed("Missing right-hand side expression of infix operator")
    /// An operator where a term should start (`WHERE IS NULL`, `pk = LIKE`).
    static let unexpectedOperator = malformed("Unexpected operator")
    /// `x IS FOO`: a name that is not one of PartiQL's types.
    static let expectedTypeName = malformed("Expected type name")
    /// A reserved word after a `.` in a path (`m.inner`).
    static let invalidPathDot = malformed("Invalid path dot component")
    static let unexpectedKeyword = malformed("Unexpected keyword")
    static let unexpectedTerm = malformed("Unexpected term")
    static let unexpectedEnd = malformed("Unexpected end of statement")
    static let expectedDataManipulation = malformed("Expected data manipulation")
    static let expectedIdentifier = malformed("Expected identifier for simple path")

    /// Too few `Parameters` for the statement's `?`.
    static let parameterCount = DynamoError.validation("Number of parameters in request and statement don't match.")
    /// An UPDATE or DELETE (or a transaction's read) whose WHERE does not fix the whole key.
    static let incompleteKey = DynamoError.validation(
        "Where clause does not contain a mandatory equality on all key attributes")
    package static func unsupportedClause(_ clause: String) -> DynamoError { .validation("Unsupported clause: \(clause)") }
    static func unsupportedOperation(_ operation: String) -> DynamoError { .validation("Unsupported operation: \(operation)") }
    /// A function the place does not take (`EXISTS(path)` or `set_add` in a WHERE), with where it was written.
    static func unrecognizedFunction(_ name: String, _ span: PartiQLSpan) -> DynamoError {
        .validation("Unrecognized function: \(name)\(span.suffix)")
    }
    /// A function call in a select list.
    static func unexpectedPathComponent(_ span: PartiQLSpan) -> DynamoError {
        .validation("Unexpected path component\(span.suffix)")
    }
    /// A condition function with the wrong number of arguments (the expression language's words).
    static func operandCount(_ name: String, _ count: Int) -> DynamoError {
        .validation(
            "Incorrect number of operands for operator or function; operator or function: \(name), number of operands: \(count)")
    }
    /// `attribute_exists('x')`: the function takes a path.
    static func documentPathRequired(_ name: String) -> DynamoError {
        .validation("Operator or function requires a document path; operator or function: \(name)")
    }
    /// A function call inside an INSERT's item.
    static func insertFunction(_ name: String, path: String, _ span: PartiQLSpan) -> DynamoError {
        .validation("Unsupported data type: \(name) under key root\(path)\(span.suffix)")
    }
    /// A string bag with a repeated member, its members as written.
    static func bagDuplicateStrings(_ members: [String]) -> DynamoError {
        .validation(
            "One or more parameter values were invalid: Input collection [\(members.joined(separator: ", "))] contains duplicates.")
    }
    /// A SELECT of a batch that is not a read of one item by its whole table key.
    package static let batchReadKey = DynamoError.validation(
        "Select statements within BatchExecuteStatement must specify the primary key in the where clause.")
    /// A read of an index whose key has several HASH or RANGE attributes.
    package static let multiAttributeIndex = DynamoError.validation(
        "PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE keys.")
    /// More than 100 values in one `IN` list.
    static func tooManyInOperands(_ count: Int) -> DynamoError {
        .validation("The IN operator is provided with too many operands; number of operands: \(count)")
    }
    /// A SELECT whose `IN` lists on the key make more than 50 reads.
    package static let tooManyDecomposedReads = DynamoError.validation("Too many decomposed read operations for a given query.")
    static let overlappingRangeConditions = DynamoError.validation(
        "Overlapping conditions with range keys are not supported in where clause")
    static let missingCompared = DynamoError.validation("MISSING must be compared using IS operator")
    static let invalidIn = DynamoError.validation(
        "IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with at least one member")
    static let isOperand = DynamoError.validation(
        "The left hand side argument to IS must be a Variable Reference, Literal, or Path")
    static func isType(_ type: String) -> DynamoError {
        .validation(
            "Unsupported data type for IS operator: \(type). Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]"
        )
    }
    static let whereNotBoolean = DynamoError.validation("WHERE clause must contain an expression that resolves to a boolean")
    static let andOrOperand = DynamoError.validation("The arguments to AND/OR must be Expressions")
    static let notOperand = DynamoError.validation("The argument to NOT must be a Type or Expression")
    static func conditionOperator(_ op: String) -> DynamoError {
        .validation("Unsupported operator in Condition Expression. Operator: \(op)")
    }
    static func updateOperator(_ op: String) -> DynamoError {
        .validation("Unsupported operator in Update Expression. Operator: \(op)")
    }
    static let emptyBag = DynamoError.validation("Empty bags are not supported")
    static let bagType = DynamoError.validation(
        "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags")
    static let bagDuplicates = DynamoError.validation("Input collection contains duplicates")
    static let starAndOthers = DynamoError.validation("Other attributes should not be present in the projection when '*' is used.")
    static func duplicateIdentifier(_ name: String) -> DynamoError {
        .validation("Duplicate identifiers in select clause: \(name)")
    }
    static let fromPathLength = DynamoError.validation("A path may contain at most 2 components in the FROM clause")
    package static let indexWrite = DynamoError.validation("This operation is not supported on an index")
    static let pathStartsWithIndex = DynamoError.validation("A path cannot start with a list index")
    static let wildcardPath = DynamoError.validation("Wildcard path component like a[*].b are not supported")
    static let unpivotPath = DynamoError.validation("Unpivot path component like a.*.b are not supported")
    static let emptyPathComponent = DynamoError.validation("Path component cannot be an empty string")
    static let insertMultiple = DynamoError.validation(
        "Unsupported operation: Inserting multiple items in a single statement is not supported, use \"INSERT INTO tableName VALUE item\" instead")
    static let insertItemFormat = DynamoError.validation(
        "Unsupported format in item expression. Please use struct format {...} to express item values for insert statement.")
    static let returningInInsert = DynamoError.validation("RETURNING is not supported in INSERT")
    static func returningInDelete(_ variant: String) -> DynamoError {
        .validation("Invalid returning clause: RETURNING \(variant) *. Only RETURNING ALL OLD * is allowed in DELETE statements.")
    }
    static let returningStar = DynamoError.validation("Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause")
    static let updateAction = DynamoError.validation("Only SET and REMOVE are supported in update expressions at this time")
    static func setFunctionArguments(_ name: String, _ span: PartiQLSpan) -> DynamoError {
        .validation("SET_\(name) must have exactly two arguments\(span.suffix)")
    }
    static func setFunctionFirst(_ name: String, _ span: PartiQLSpan) -> DynamoError {
        .validation("The first argument to SET_\(name) must equal the assignment value\(span.suffix)")
    }
    /// The position is the first argument's, as the service gives it.
    static func setFunctionSecond(_ name: String, _ span: PartiQLSpan) -> DynamoError {
        .validation("The second argument to SET_\(name) must be a value with type SET\(span.suffix)")
    }
    static func multipleKeyConditions(_ key: String) -> DynamoError {
        .validation("Multiple conditions on same key \(key). Only single item Update/Insert/Delete are supported")
    }
    static func keyAbsent(_ key: String) -> DynamoError {
        .validation("Key attribute should be present in the item: Key \(key)")
    }
    static func keyType(_ key: String) -> DynamoError {
        .validation("Key attribute's data type should match its data type in table's schema: Key \(key)")
    }
    static func tupleKeyType(_ type: String) -> DynamoError {
        .validation("Tuple keys must be of type String. Actual type: \(type)")
    }
    static func duplicateTupleKey(_ key: String) -> DynamoError { .validation("Duplicate keys in tuple. Key: \(key)") }
    static let orderByWithoutWhere = DynamoError.validation("Must have WHERE clause in the statement when using ORDER BY clause.")
    static let orderByWithoutHashKey = DynamoError.validation(
        "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.")
    static func orderByNotKey(_ name: String) -> DynamoError {
        .validation("Variable reference \(name) in ORDER BY clause must be part of the primary key")
    }
    static let orderByHashKeyNeeded = DynamoError.validation(
        "Must have hash key in ORDER BY clause when more than one hash key condition specified in WHERE clause.")
    package static let existsOutsideTransaction = DynamoError.validation("EXISTS can only be used in ExecuteTransaction write requests.")
    static let existsShape = DynamoError.validation("EXISTS() must contain a single item read with additional condition")
    package static let transactionReadKey = DynamoError.validation(
        "Select statements within ExecuteTransaction must specify the primary key in the where clause.")
    package static let transactionIndexRead = DynamoError.validation("Reads on indices are not supported within transactions.")
    package static let transactionReturning = DynamoError.validation("RETURNING clause is not supported in ExecuteTransaction.")
    /// A statement-level rule of ExecuteTransaction, naming the statement it broke
    /// (`Validation failed in TransactStatements[0]: …`, dynamodb-conformance suite, 2026).
    package static func transactionStatement(_ position: Int, _ error: DynamoError) -> DynamoError {
        .validation("Validation failed in TransactStatements[\(position)]: \(error.message ?? "")")
    }
    package static let transactionIndexWrite = DynamoError.validation("Operations on indices are not supported in transactions")
    package static let transactionMixed = DynamoError.validation(
        "ExecuteTransaction API does not support both read and write operations in the same request.")
    package static let batchMixed = DynamoError.validation("Read and write requests together in the same batch is not supported.")
    package static let invalidNextToken = DynamoError.validation("Invalid NextToken")
    package static let expiredNextToken = DynamoError.validation("Given NextToken has already expired")
    package static let foreignNextToken = DynamoError.validation("The provided starting key is invalid")
    package static let consistentReadOnGSI = DynamoError.validation(
        "Strongly consistent read is not supported on Global Secondary Indexes")
    package static let duplicateItem = DynamoError(
        DynamoErrorCode(rawValue: "DuplicateItemException"),
        "Duplicate primary key exists in table")
}

// MARK: - Parser/PartiQLParser+Expressions.swift

extension PartiQLMessages {
    /// Thrown by PartiQLParser+Expressions.primaryPath (`digits` as written, with its `-`).
    static func listIndexNotWithinAllowable(digits: String) -> DynamoError {
        .validation("List index is not within the allowable range; index: [\(digits)]")
    }
}

// MARK: - Parser/PartiQLParser.swift

extension PartiQLMessages {
    /// Thrown by PartiQLParser.select.
    static let selectProjectionDoesnTSupport = DynamoError.validation("Select projection doesn't support value or pivot keywords")

    /// Thrown by PartiQLParser.select.
    static let aliasingNotSupported = DynamoError.validation("Aliasing is not supported")

    /// Thrown by PartiQLParser.select.
    static let onlySelectFromSingleTable = DynamoError.validation("Only select from a single table or index is supported.")

    /// Thrown by PartiQLParser.insert.
    static let atNotSupportedInsertStatements = DynamoError.validation("AT is not supported in insert statements.")

    /// Thrown by PartiQLParser.insert.
    static let unsupportedFromWhereClauseInsert = DynamoError.validation("Unsupported FROM ... WHERE ... clause in INSERT statement.")

    /// Thrown by PartiQLParser.returning.
    static let invalidSyntaxMultipleReturningElements = DynamoError.validation("Invalid syntax with multiple returning elements in RETURNING clause")
}

// MARK: - Translation/PartiQLConditions.swift

extension PartiQLMessages {
    /// Thrown by PartiQLConditions.checkOrderable.
    static func incorrectOperandTypeOperatorFunction(op: String, typeDescriptor: String) -> DynamoError {
        .validation("Incorrect operand type for operator or function; operator or function: \(op), operand type: \(typeDescriptor)")
    }
}
