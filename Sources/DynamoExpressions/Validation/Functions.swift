/// The functions of DynamoDB's expressions and where each may be used.
enum Functions {
    /// Functions that are conditions on their own, with their operand counts.
    static let conditions: [String: Int] = [
        "attribute_exists": 1, "attribute_not_exists": 1, "attribute_type": 2, "begins_with": 2, "contains": 2,
    ]
    /// Functions that give a value inside a condition.
    static let operands: [String: Int] = ["size": 1]
    /// Functions of an update's `SET` values.
    static let updates: [String: Int] = ["if_not_exists": 2, "list_append": 2]

    /// The operand count of any known function.
    static func arity(_ name: String) -> Int? {
        conditions[name] ?? operands[name] ?? updates[name]
    }

    /// The ten type descriptors `attribute_type` accepts.
    static let typeNames: Set<String> = ["S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"]
}
