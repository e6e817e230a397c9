import DynamoAPI

/// A save refused before anything was written: every problem of every object, not just the
/// first.
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One problem of one object.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// The object.
        public var objectID: ObjectID
        /// The property concerned, if one.
        public var property: String?
        /// What is wrong.
        public var message: String

        /// Describes a problem.
        public init(objectID: ObjectID, property: String? = nil, message: String) {
            self.objectID = objectID
            self.property = property
            self.message = message
        }

        /// `Entity(key=…).property: message`.
        public var description: String {
            "\(objectID)\(property.map { ".\($0)" } ?? ""): \(message)"
        }
    }

    /// Every problem found.
    public var issues: [Issue]

    /// Makes the error.
    public init(issues: [Issue]) {
        self.issues = issues
    }

    /// One problem per line.
    public var description: String {
        "validation failed:\n" + issues.map { "  \($0)" }.joined(separator: "\n")
    }
}

/// An object whose row changed (or vanished) in the store since the object was read.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    /// One property whose value differs between the object and the store.
    public struct Difference: Sendable, Hashable {
        /// The property name.
        public var property: String
        /// The object's value (DynamoDB form; relationships as their stored keys).
        public var objectValue: AttributeValue?
        /// The store's value.
        public var storeValue: AttributeValue?
    }

    /// The object.
    public var objectID: ObjectID
    /// The version the object was read at (`nil`: no version attribute, or a new object).
    public var objectVersion: Int64?
    /// The store's version now (`nil`: no version attribute, or no row).
    public var storeVersion: Int64?
    /// Whether the row still exists in the store.
    public var existsInStore: Bool
    /// The properties whose values differ.
    public var differences: [Difference]

    /// `Entity(key=…): version 3, store 4; name "A" ≠ "B"`.
    public var description: String {
        let versions = "version \(objectVersion.map(String.init) ?? "-"), store \(existsInStore ? storeVersion.map(String.init) ?? "-" : "deleted")"
        let values = differences.map { "\($0.property) \($0.objectValue?.description ?? "nil") ≠ \($0.storeValue?.description ?? "nil")" }
        return "\(objectID): \(versions)" + (values.isEmpty ? "" : "; " + values.joined(separator: ", "))
    }
}

/// A save refused because rows changed in the store (merge policy ``MergePolicy/error``).
public struct MergeConflictError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every conflicting object.
    public var conflicts: [MergeConflict]

    /// One conflict per line.
    public var description: String {
        "merge conflict:\n" + conflicts.map { "  \($0)" }.joined(separator: "\n")
    }
}

/// A save too large for one transaction that stopped after some of its transactions were
/// stored. The context reflects exactly what was stored: those objects are saved, the others
/// still have their unsaved changes, so saving again continues.
public struct PartialSaveError: Error, Sendable, CustomStringConvertible {
    /// Objects whose insert, update or delete is stored.
    public var stored: [ObjectID]
    /// Objects whose changes are not stored.
    public var notStored: [ObjectID]
    /// Why the save stopped (`DynamoError`, ``MergeConflictError``, …).
    public var underlying: any Error

    /// Counts and the cause.
    public var description: String {
        "save stopped after storing \(stored.count) of \(stored.count + notStored.count) objects: \(underlying)"
    }
}
