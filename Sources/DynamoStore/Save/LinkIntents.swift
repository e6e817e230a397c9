/// The links a save must leave in the store, for both sides of every relationship.
///
/// An object's own changes are the difference between its relationship's destinations now and
/// in its snapshot. A snapshot can be stale: another context may have linked or unlinked the
/// pair after this context read one side and before it read the other. Then only one side
/// shows the change, and a save that diffs each object against its own snapshot writes one
/// side alone. So every change shown by one side is also an intent on the other side (the
/// destination's inverse must list the object, or must not), and the planner writes each
/// intent whatever the destination's snapshot says: `ADD`/`DELETE` on a to-many inverse
/// (idempotent), a condition on a to-one inverse (its stored value must be what the link
/// requires; a stale one is a conflict the merge policy resolves).
///
/// A deleted object's links (as read, and as they are now) are unlinked from the inverses its
/// nullify rules reach, so a destination that read the link stale loses it too.
struct LinkIntents {
    /// Object → relationship name → destination → whether the destination must be linked.
    private var byObject: [ObjectID: [String: [ObjectID: Bool]]] = [:]

    init(_ context: ObjectContext) {
        var fromDeleted: [ObjectID: [String: [ObjectID: Bool]]] = [:]
        var fromPartners: [ObjectID: [String: [ObjectID: Bool]]] = [:]
        var own: [ObjectID: [String: [ObjectID: Bool]]] = [:]
        for object in context.registered.values where object.lifecycle == .stored && !object.isDeletedInStore && !object.isFault {
            guard object.deleteMark else { continue }
            for relationship in object.entity.relationships where relationship.deleteRule == .nullify {
                guard let inverse = relationship.inverse else { continue }
                let linked = (object.snapshot?.relationships[relationship.name] ?? []).union(context.currentIDs(of: object, relationship.name))
                for id in linked { fromDeleted[id, default: [:]][inverse, default: [:]][object.objectID] = false }
            }
        }
        let live =
            context.insertedList.filter { !$0.deleteMark }
            + context.registered.values.filter {
                $0.lifecycle == .stored && !$0.deleteMark && !$0.isFault && !$0.isDeletedInStore
            }
        for object in live {
            let id = object.objectID
            for relationship in object.entity.relationships {
                let before = object.lifecycle == .stored ? object.snapshot?.relationships[relationship.name] ?? [] : []
                let now = context.currentIDs(of: object, relationship.name)
                guard before != now else { continue }
                for (changed, linked) in [(now.subtracting(before), true), (before.subtracting(now), false)] {
                    for destination in changed {
                        own[id, default: [:]][relationship.name, default: [:]][destination] = linked
                        if let inverse = relationship.inverse {
                            fromPartners[destination, default: [:]][inverse, default: [:]][id] = linked
                        }
                    }
                }
            }
        }
        // Later sources win: a live partner over a deleted one (a key deleted and inserted
        // again), the object's own change over its partners'.
        for source in [fromDeleted, fromPartners, own] {
            for (id, relationships) in source {
                for (name, links) in relationships {
                    byObject[id, default: [:]][name, default: [:]].merge(links) { $1 }
                }
            }
        }
    }

    /// The links of one relationship of an object that the save must write: destination →
    /// linked (`true`) or unlinked (`false`).
    func links(of id: ObjectID, _ relationship: String) -> [ObjectID: Bool] {
        byObject[id]?[relationship] ?? [:]
    }

    /// Every object the save must touch for a link, whether it changed itself or not.
    var objectIDs: Dictionary<ObjectID, [String: [ObjectID: Bool]]>.Keys { byObject.keys }

    /// The objects an object's links must be stored together with.
    func partners(of id: ObjectID) -> Set<ObjectID> {
        Set((byObject[id] ?? [:]).values.flatMap(\.keys))
    }
}
