import DynamoAPI
import DynamoPartiQL

/// The PartiQL parser: any statement text parses or fails with DynamoDB's error.
struct PartiQLTarget: FuzzTarget {
    let name = "partiql"
    let maximumInputSize = 10_000
    let dictionary = [
        "SELECT ", "INSERT INTO ", "UPDATE ", "DELETE FROM ", "EXISTS(", " FROM ", " WHERE ", " VALUE ", " SET ",
        " REMOVE ", " RETURNING ", "ALL OLD *", "MODIFIED NEW *", " ORDER BY ", " DESC", " AND ", " OR ", "NOT ",
        " IN ", " IS ", "MISSING", "NULL", " BETWEEN ", "size(", "begins_with(", "contains(", "attribute_type(",
        "set_add(", "set_delete(", "list_append(", "'", "\"", "(", ")", "[", "]", "{", "}", "<<", ">>", ",", ".",
        "?", "*", "=", "<>", "<=", ">=", "-", "--", "/*", "*/", "1e400", "x.y[3]", "[99999999999]", "\"fuzz\"",
    ]

    func run(_ input: [UInt8]) -> String {
        do {
            _ = try PartiQLParser.parse(String(decoding: input, as: UTF8.self))
            return "ok"
        } catch {
            return error.code.rawValue
        }
    }
}
