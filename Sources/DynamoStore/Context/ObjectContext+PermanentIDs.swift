import DynamoAPI

extension ObjectContext {
    /// Gives unsaved objects their permanent IDs now, before the save (Core Data's
    /// `obtainPermanentIDs(for:)`), so the IDs can be handed to other contexts or kept. A
    /// DynamoDB key is chosen by the app, so the permanent ID is the object's key as it is
    /// now; from here on the key may not change (a save reports a change as a validation
    /// error). Stored objects already have theirs.
    ///
    /// - Parameter objects: objects of this context.
    /// - Throws: ``ValidationError`` for objects whose key attributes are missing or empty
    ///   (nothing is changed then).
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        var issues: [ValidationError.Issue] = []
        let unsaved = objects.filter { $0.storedID == nil && $0.obtainedID == nil }
        for object in unsaved {
            let id = object.objectID
            for attribute in object.entity.keyAttributes {
                let value = id.key[attribute.storageName]
                if value == nil || value == .s("") || value == .b([]) {
                    issues.append(.init(objectID: id, property: attribute.name, message: "a permanent ID needs a key value"))
                }
            }
        }
        if !issues.isEmpty { throw ValidationError(issues: issues) }
        for object in unsaved { object.obtainedID = object.objectID.permanent }
    }
}
