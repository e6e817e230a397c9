// The model checks of vector indexes: DynamoDB's rules that a model can break before any request.
extension StoreModel {
    /// DynamoDB's limit of vector indexes per table.
    static let maximumVectorIndexes = 5
    /// DynamoDB's limit of a vector index's dimensions.
    static let maximumVectorDimensions = 4096

    static func vectorIndexProblems(_ entity: EntityDescription, in entities: [EntityDescription]) -> [String] {
        var problems: [String] = []
        var names = Set(entity.indexes.map(\.name))
        var dimensionsByAttribute: [String: Int] = [:]
        if entity.vectorIndexes.count > maximumVectorIndexes {
            problems.append("\(entity.name): \(entity.vectorIndexes.count) vector indexes; DynamoDB allows \(maximumVectorIndexes) per table")
        }
        for index in entity.vectorIndexes {
            let path = "\(entity.name) vector index \(index.name)"
            if !names.insert(index.name).inserted {
                problems.append("\(path): another index of \(entity.name) has this name")
            }
            if let attribute = entity.attribute(named: index.attribute) {
                if !attribute.type.isVector {
                    problems.append(
                        "\(path): attribute '\(index.attribute)' is \(attribute.type.rawValue); a vector index reads a [Float] or [Double] attribute")
                }
            } else {
                problems.append("\(path): '\(index.attribute)' is not an attribute of \(entity.name)")
            }
            if !(1...maximumVectorDimensions).contains(index.dimensions) {
                problems.append("\(path): \(index.dimensions) dimensions; DynamoDB allows 1 to \(maximumVectorDimensions)")
            }
            if let other = dimensionsByAttribute.updateValue(index.dimensions, forKey: index.attribute), other != index.dimensions {
                problems.append("\(path): another vector index of '\(index.attribute)' has \(other) dimensions; indexes of one attribute agree")
            }
            var schema: Set<String> = []
            for property in index.searchSchemaProperties {
                if !schema.insert(property).inserted {
                    problems.append("\(path): '\(property)' is in the search schema twice")
                }
                if property == index.attribute {
                    problems.append("\(path): the vector attribute '\(property)' cannot be in its own search schema")
                } else if let attribute = entity.attribute(named: property) {
                    if attribute.type.keyScalarType == nil {
                        problems.append(
                            "\(path): search-schema property '\(property)' is \(attribute.type.rawValue); it must be a string, number or data attribute"
                        )
                    }
                } else if let relationship = entity.relationship(named: property) {
                    if relationship.isToMany {
                        problems.append("\(path): search-schema property '\(property)' is a to-many relationship, which is stored as a set")
                    } else if entities.contains(where: { $0.name == relationship.destination })
                        && keyScalarType(of: relationship, in: entities) == nil
                    {
                        problems.append(
                            "\(path): search-schema property '\(property)' is a relationship whose destination's key is not a string, number or data")
                    }
                } else {
                    problems.append("\(path): search-schema property '\(property)' is not an attribute or to-one relationship of \(entity.name)")
                }
            }
            if case .include(let projected) = index.projection {
                for name in projected where entity.attribute(named: name) == nil && entity.relationship(named: name) == nil {
                    problems.append("\(path): projected property '\(name)' is not a property of \(entity.name)")
                }
            }
        }
        return problems
    }
}
