import DynamoAPI
import DynamoExpressions

/// A recursive-descent parser for DynamoDB's PartiQL dialect: one SELECT, INSERT, UPDATE,
/// DELETE or `[NOT] EXISTS(SELECT …)` per statement, an optional `;` at the end.
///
/// ```swift
/// let parsed = try PartiQLParser.parse(#"SELECT * FROM "Orders" WHERE pk = ?"#)
/// parsed.parameterCount   // 1
/// ```
package struct PartiQLParser {
    /// How deep expressions may nest before the statement is refused (guards the stack).
    static let maximumDepth = 100

    var tokens: [PartiQLToken]
    var position = 0
    var parameters = 0
    var depth = 0
    /// Where the literal being read sits inside the constant around it (`.x`, `[1]`), for the
    /// number messages' `under root.x`.
    var constantPath: [String] = []
    /// The first number literal that breaks DynamoDB's number rules: reported once the whole
    /// statement has parsed (syntax errors come first).
    var numberError: DynamoError?
    /// Whether the next tuple is an INSERT's item, whose members are each a root of the number
    /// messages' places (`{'m': {'x': 1e126}}` is `under root.x`).
    var nextTupleIsItem = false

    /// Parses one statement.
    ///
    /// - Throws: `ValidationException` with DynamoDB's PartiQL wording ("Statement wasn't well
    ///   formed, can't be processed: …", "Unsupported clause: LIMIT", …).
    package static func parse(_ text: String) throws(DynamoError) -> ParsedStatement {
        var parser = PartiQLParser(tokens: try PartiQLLexer.tokenize(text))
        let statement = try parser.statement()
        if parser.accept(symbol: ";") {
            guard parser.peek.kind == .end else { throw parser.unexpected() }
        } else if parser.peek.kind != .end {
            throw parser.leftover()
        }
        if let numberError = parser.numberError { throw numberError }
        return ParsedStatement(statement: statement, parameterCount: parser.parameters)
    }

    var peek: PartiQLToken { tokens[position] }

    func peek(_ ahead: Int) -> PartiQLToken { tokens[min(position + ahead, tokens.count - 1)] }

    /// The error for the token at the current position.
    func unexpected() -> DynamoError {
        switch peek.kind {
        case .keyword(let word):
            switch word {
            case "LIMIT", "OFFSET", "HAVING": return PartiQLMessages.unsupportedClause(word)
            case "GROUP": return PartiQLMessages.unsupportedClause("GROUP BY")
            default: return PartiQLMessages.unexpectedKeyword
            }
        case .end, .symbol(";"): return PartiQLMessages.unexpectedTerm
        default: return PartiQLMessages.unexpectedToken
        }
    }

    /// The error for a token left after a whole statement: an unsupported clause by its name,
    /// else "Unexpected token after expression".
    func leftover() -> DynamoError {
        switch peek.kind {
        case .keyword("LIMIT"), .keyword("OFFSET"), .keyword("HAVING"), .keyword("GROUP"): unexpected()
        default: PartiQLMessages.leftoverToken
        }
    }

    /// Refuses a table alias (`FROM "T" t`, `FROM "T" AS t`), as the service does for SELECT,
    /// UPDATE and DELETE.
    func refuseAlias() throws(DynamoError) {
        switch peek.kind {
        case .identifier, .quotedIdentifier, .keyword("AS"), .keyword("AT"): throw PartiQLMessages.aliasingNotSupported
        default: return
        }
    }

    mutating func accept(keyword: String) -> Bool {
        guard peek.isKeyword(keyword) else { return false }
        position += 1
        return true
    }

    mutating func accept(symbol: String) -> Bool {
        guard peek.isSymbol(symbol) else { return false }
        position += 1
        return true
    }

    mutating func expect(keyword: String) throws(DynamoError) {
        guard accept(keyword: keyword) else { throw unexpected() }
    }

    mutating func expect(symbol: String) throws(DynamoError) {
        guard accept(symbol: symbol) else { throw unexpected() }
    }

    // MARK: Statements

    private mutating func statement() throws(DynamoError) -> PartiQLStatement {
        switch peek.kind {
        case .keyword("SELECT"): return .select(try select(defersProjectionError: true))
        case .keyword("INSERT"): return try insert()
        case .keyword("UPDATE"): return try update()
        case .keyword("FROM"): return try fromFirstUpdate()
        case .keyword("DELETE"): return try delete()
        case .keyword("EXISTS"):
            return .exists(try existsCheck(), negated: false)
        case .keyword("NOT") where peek(1).isKeyword("EXISTS"):
            position += 1
            return .exists(try existsCheck(), negated: true)
        default:
            throw bareExpressionError()
        }
    }

    /// The refusal of a statement that does not start with a DML keyword: a whole statement
    /// that is a type test (`x IS INT4`) parses and is refused by its operation, as the
    /// service does ("Unsupported operation: IsType"); anything else is "Expected data
    /// manipulation".
    private mutating func bareExpressionError() -> DynamoError {
        let start = position
        let parsed = try? expression()
        let atEnd = peek.kind == .end || (peek.isSymbol(";") && tokens[position + 1].kind == .end)
        position = start
        if case .isType? = parsed, atEnd { return PartiQLMessages.unsupportedOperation("IsType") }
        return PartiQLMessages.expectedDataManipulation
    }

    private mutating func existsCheck() throws(DynamoError) -> PartiQLSelect {
        try expect(keyword: "EXISTS")
        try expect(symbol: "(")
        guard peek.isKeyword("SELECT") else { throw unexpected() }
        let select = try select()
        try expect(symbol: ")")
        return select
    }

    /// Parses a SELECT.
    ///
    /// - Parameter defersProjectionError: whether a function call in the select list of a
    ///   statement that reads an index is kept in ``PartiQLSelect/projectionError`` (the service
    ///   checks the index first) instead of thrown; it is thrown when the statement reads the
    ///   table or does not parse past the call.
    mutating func select(defersProjectionError: Bool = false) throws(DynamoError) -> PartiQLSelect {
        try expect(keyword: "SELECT")
        if peek.isKeyword("VALUE") || peek.isKeyword("PIVOT") || peek.isKeyword("DISTINCT") {
            throw PartiQLMessages.selectProjectionDoesnTSupport
        }
        var projection: [DocumentPath]?
        if accept(symbol: "*") {
            if peek.isSymbol(",") { throw PartiQLMessages.starAndOthers }
        } else {
            var paths: [DocumentPath] = []
            repeat {
                if peek.isSymbol("*") { throw PartiQLMessages.starAndOthers }
                // A function call is not a path (`SELECT attribute_exists(a) …`).
                switch (peek.kind, peek(1).isSymbol("(")) {
                case (.identifier, true), (.keyword, true):
                    let refusal = PartiQLMessages.unexpectedPathComponent(peek.span)
                    guard defersProjectionError else { throw refusal }
                    return try selectAfterCall(refusal)
                default: break
                }
                guard case .path(let path) = try primaryPath() else { throw unexpected() }
                if peek.isKeyword("AS") { throw PartiQLMessages.aliasingNotSupported }
                paths.append(path)
            } while accept(symbol: ",")
            projection = paths
        }
        try expect(keyword: "FROM")
        let (table, index) = try source()
        if peek.isSymbol(",") || peek.isKeyword("JOIN") || peek.isKeyword("CROSS") || peek.isKeyword("INNER")
            || peek.isKeyword("LEFT")
        {
            throw PartiQLMessages.onlySelectFromSingleTable
        }
        try refuseAlias()
        var select = PartiQLSelect(projection: projection, table: table, index: index)
        if accept(keyword: "WHERE") { select.whereClause = try expression() }
        if accept(keyword: "ORDER") {
            try expect(keyword: "BY")
            repeat {
                let name = try name()
                var descending = false
                if accept(keyword: "DESC") { descending = true } else { _ = accept(keyword: "ASC") }
                select.orderBy.append((name, descending))
            } while accept(symbol: ",")
        }
        return select
    }

    /// The rest of a SELECT whose select list holds a function call: its FROM and clauses
    /// after the call and the rest of the list, with `refusal` kept for an index read and
    /// thrown otherwise (also when the rest does not parse).
    private mutating func selectAfterCall(_ refusal: DynamoError) throws(DynamoError) -> PartiQLSelect {
        var depth = 0
        while peek.kind != .end {
            if peek.isSymbol("(") { depth += 1 }
            if peek.isSymbol(")") { depth -= 1 }
            if depth == 0, peek.isKeyword("FROM") { break }
            position += 1
        }
        guard depth == 0, accept(keyword: "FROM"), let (table, index) = try? source(), index != nil else { throw refusal }
        var select = PartiQLSelect(projection: nil, table: table, index: index)
        select.projectionError = refusal
        guard (try? refuseAlias()) != nil else { throw refusal }
        if accept(keyword: "WHERE") {
            guard let condition = try? expression() else { throw refusal }
            select.whereClause = condition
        }
        if accept(keyword: "ORDER") {
            // The ORDER BY is not checked: the statement is refused either way.
            while peek.kind != .end, !peek.isSymbol(";") { position += 1 }
        }
        return select
    }

    private mutating func insert() throws(DynamoError) -> PartiQLStatement {
        try expect(keyword: "INSERT")
        try expect(keyword: "INTO")
        let (table, index) = try source()
        if peek.isKeyword("VALUES") || peek.isSymbol("<<") || peek.isKeyword("SELECT") { throw PartiQLMessages.insertMultiple }
        if peek.isKeyword("AT") { throw PartiQLMessages.atNotSupportedInsertStatements }
        // Unlike the other statements, an INSERT's alias is a token out of place.
        if case .identifier = peek.kind { throw PartiQLMessages.leftoverToken }
        try expect(keyword: "VALUE")
        nextTupleIsItem = true
        let item = try expression()
        nextTupleIsItem = false
        switch item {
        case .tuple, .parameter: break
        default: throw PartiQLMessages.insertItemFormat
        }
        if peek.isKeyword("RETURNING") { throw PartiQLMessages.returningInInsert }
        if peek.isKeyword("WHERE") || peek.isKeyword("FROM") {
            throw PartiQLMessages.unsupportedFromWhereClauseInsert
        }
        return .insert(table: table, index: index, item: item)
    }

    private mutating func update() throws(DynamoError) -> PartiQLStatement {
        try expect(keyword: "UPDATE")
        let (table, index) = try source()
        try refuseAlias()
        let clauses = try updateClauses()
        let whereClause = accept(keyword: "WHERE") ? try expression() : nil
        return .update(table: table, index: index, clauses: clauses, whereClause: whereClause, returning: try returning())
    }

    /// PartiQL's FROM-first UPDATE: `FROM "T" [WHERE …] SET …|REMOVE … [RETURNING …]`, the
    /// clauses in that order (a WHERE after the SET is a token out of place).
    private mutating func fromFirstUpdate() throws(DynamoError) -> PartiQLStatement {
        try expect(keyword: "FROM")
        let (table, index) = try source()
        try refuseAlias()
        let whereClause = accept(keyword: "WHERE") ? try expression() : nil
        let clauses = try updateClauses()
        return .update(table: table, index: index, clauses: clauses, whereClause: whereClause, returning: try returning())
    }

    /// One or more `SET path = value, …` and `REMOVE path, …` clauses, in any order.
    private mutating func updateClauses() throws(DynamoError) -> [PartiQLUpdateClause] {
        var clauses: [PartiQLUpdateClause] = []
        while true {
            if accept(keyword: "SET") {
                repeat {
                    guard case .path(let path) = try primaryPath() else { throw unexpected() }
                    try expect(symbol: "=")
                    clauses.append(.set(path, try expression()))
                } while accept(symbol: ",")
            } else if accept(keyword: "REMOVE") {
                repeat {
                    guard case .path(let path) = try primaryPath() else { throw unexpected() }
                    clauses.append(.remove(path))
                } while accept(symbol: ",")
            } else if peek.isKeyword("ADD") || peek.isKeyword("DELETE") {
                throw PartiQLMessages.updateAction
            } else {
                break
            }
        }
        guard !clauses.isEmpty else { throw unexpected() }
        return clauses
    }

    private mutating func delete() throws(DynamoError) -> PartiQLStatement {
        try expect(keyword: "DELETE")
        try expect(keyword: "FROM")
        switch peek.kind {
        case .identifier, .quotedIdentifier: break
        default: throw PartiQLMessages.expectedIdentifier
        }
        let (table, index) = try source()
        try refuseAlias()
        let whereClause = accept(keyword: "WHERE") ? try expression() : nil
        let returning = try returning()
        if let returning, returning != .allOld { throw PartiQLMessages.returningInDelete(returning.rawValue) }
        return .delete(table: table, index: index, whereClause: whereClause, returning: returning)
    }

    private mutating func returning() throws(DynamoError) -> PartiQLReturning? {
        guard accept(keyword: "RETURNING") else { return nil }
        let all: Bool
        if accept(keyword: "ALL") { all = true } else if accept(keyword: "MODIFIED") { all = false } else { throw unexpected() }
        let old: Bool
        if accept(keyword: "OLD") { old = true } else if accept(keyword: "NEW") { old = false } else { throw unexpected() }
        guard accept(symbol: "*") else { throw PartiQLMessages.returningStar }
        if peek.isSymbol(",") { throw PartiQLMessages.invalidSyntaxMultipleReturningElements }
        switch (all, old) {
        case (true, true): return .allOld
        case (false, true): return .modifiedOld
        case (true, false): return .allNew
        case (false, false): return .modifiedNew
        }
    }

    /// `"Table"` or `"Table"."Index"` (names may be unquoted).
    private mutating func source() throws(DynamoError) -> (String, String?) {
        if case .parameter = peek.kind { throw unexpected() }
        let table = try name()
        if table.isEmpty { throw PartiQLMessages.emptyPathComponent }
        guard accept(symbol: ".") else { return (table, nil) }
        let index = try name()
        if peek.isSymbol(".") { throw PartiQLMessages.fromPathLength }
        if index.isEmpty { throw PartiQLMessages.emptyPathComponent }
        return (table, index)
    }

    /// An unquoted or quoted name.
    mutating func name() throws(DynamoError) -> String {
        switch peek.kind {
        case .identifier(let name), .quotedIdentifier(let name):
            position += 1
            return name
        default:
            throw unexpected()
        }
    }
}
