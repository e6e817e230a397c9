import DynamoAPI

/// One action of an update.
public enum UpdateAction: Sendable, Equatable {
    /// `SET path = value`, or a legacy `PUT`.
    case set(DocumentPath, Operand)
    /// `REMOVE path`, or a legacy `DELETE` without a value.
    case remove(DocumentPath)
    /// `ADD path :value`: adds to a number or a set (a legacy `ADD` also appends to a list);
    /// creates the attribute when it is missing.
    case add(DocumentPath, AttributeValue)
    /// `DELETE path :set`: removes elements from a set; a set left empty is removed.
    case delete(DocumentPath, AttributeValue)

    /// The path the action writes.
    public var path: DocumentPath {
        switch self {
        case .set(let path, _), .remove(let path), .add(let path, _), .delete(let path, _): path
        }
    }
}

/// A compiled update: an UpdateExpression or legacy `AttributeUpdates`.
///
/// Apply it with ``apply(to:)``; every value is worked out from the item as it was before the
/// update. ``touchedPaths`` are what `ReturnValues` `UPDATED_OLD` / `UPDATED_NEW` return.
public struct UpdatePlan: Sendable, Equatable {
    /// The actions in the order they were written (legacy: by attribute name).
    public var actions: [UpdateAction]
    /// The section index of each action (0, 1, … in the order the sections were written), which
    /// decides the order DynamoDB reports some runtime errors in.
    var sections: [Int]
    /// Whether the plan came from legacy `AttributeUpdates`, whose ADD may append to lists and
    /// whose type errors read "Type mismatch for attribute to update".
    public var isLegacy: Bool

    /// A plan of the given actions.
    public init(actions: [UpdateAction], isLegacy: Bool = false) {
        self.actions = actions
        self.sections = Array(repeating: 0, count: actions.count)
        self.isLegacy = isLegacy
    }

    init(actions: [UpdateAction], sections: [Int], isLegacy: Bool) {
        self.actions = actions
        self.sections = sections
        self.isLegacy = isLegacy
    }

    /// Whether the update only takes away (REMOVE, DELETE): on a missing item it does nothing,
    /// and creates no item.
    public var onlyRemoves: Bool {
        !actions.isEmpty
            && actions.allSatisfy {
                switch $0 {
                case .remove, .delete: true
                default: false
                }
            }
    }

    /// The paths the update writes, as `UPDATED_OLD` and `UPDATED_NEW` project them.
    public var touchedPaths: [DocumentPath] { actions.map(\.path) }
}

/// A compiled projection: a ProjectionExpression's paths, or legacy `AttributesToGet` names.
public struct ProjectionPlan: Sendable, Equatable {
    /// The paths to keep.
    public var paths: [DocumentPath]

    public init(paths: [DocumentPath]) {
        self.paths = paths
    }

    /// A projection of top-level attributes (legacy `AttributesToGet`).
    public init(attributes: [String]) {
        self.paths = attributes.map { DocumentPath(attribute: $0) }
    }
}
