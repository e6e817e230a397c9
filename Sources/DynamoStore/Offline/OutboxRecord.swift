import DynamoAPI
import Foundation

/// One object's part of a save kept in the outbox: what the object read (its row as the
/// device knew it) and what the save makes of it, so a replay plans the write again, with the
/// same conditions, and resolves a conflict by the merge policy as the online save would have.
struct OutboxRecord: Codable, Hashable {
    enum Kind: String, Codable {
        /// A new object (`after` is its item).
        case insert
        /// A changed object (`read` and `after` differ in what changed).
        case update
        /// A deleted object (`after` is `nil`).
        case delete
        /// A deleted object replaced by a new one of the same key in the same save.
        case replace
        /// An unchanged object whose stored relationship a partner's link change depends on.
        case check
        /// A change of an object the device never read (a fault neither cached nor pending):
        /// only what changed, without a row. With ``links`` the relationship destinations the
        /// save added and removed; without, the object's deletion. The replay reads the row
        /// from DynamoDB and applies the change to it (delete rules, inverses) as an online
        /// save would have; `read` and `after` are `nil`.
        case delta
    }

    var entity: String
    /// The key item's text (``ItemText/key(_:)``).
    var key: String
    var kind: Kind
    /// The row the object read (`nil` for an insert).
    var read: String?
    /// The row the save makes (`nil` for a delete).
    var after: String?
    /// Whether `read` was an earlier outbox entry's `after`: the replay reads it from what that
    /// entry's replay stored instead.
    var readFromOutbox: Bool
    /// The row the save's changes were made on (`read` as the context read it): `read` may be
    /// rebased on what an earlier entry's replay stored, the changes stay the difference
    /// between this row and `after`.
    var changesFrom: String?
    /// The row as DynamoDB held it when `read` is its migration to the current model
    /// (``ModelVersioning``): the replay reads this one and migrates it again, so its update
    /// also writes the migration (the model version, the attributes it dropped), as an online
    /// save does. `nil` when the row was current, or once `read` is rebased.
    var readRaw: String?
    /// A ``Kind/delta`` record's relationship changes: relationship name → destination key
    /// text (``ItemText/key(_:)``) → whether the save linked it (`true`) or unlinked it
    /// (`false`). `nil` for any other record, and for a delta that deletes the object.
    var links: [String: [String: Bool]]?

    init(entity: String, key: String, kind: Kind, read: String?, after: String?) {
        self.entity = entity
        self.key = key
        self.kind = kind
        self.read = read
        self.after = after
        readFromOutbox = false
        changesFrom = read
    }
}

/// Items and keys as text in the local file: an item is its DynamoDB JSON; a key is its
/// attributes' JSON in name order, so one key always has one text.
enum ItemText {
    static func item(_ item: Item) -> String {
        var writer = JSONWriter()
        AttributeValue.encode(item: item, to: &writer)
        return writer.string
    }

    static func key(_ key: Item) -> String {
        var writer = JSONWriter()
        writer.writeRaw(UInt8(ascii: "{"))
        for (position, name) in key.keys.sorted().enumerated() {
            writer.writeKey(name, first: position == 0)
            key[name]?.encode(to: &writer)
        }
        writer.writeRaw(UInt8(ascii: "}"))
        return writer.string
    }

    static func decode(_ text: String) throws -> Item {
        try AttributeValue.decodeItem(JSONValue(parsing: text))
    }

    static func records(_ records: [OutboxRecord]) throws -> String {
        String(decoding: try JSONEncoder().encode(records), as: UTF8.self)
    }

    static func records(_ text: String) throws -> [OutboxRecord] {
        try JSONDecoder().decode([OutboxRecord].self, from: Data(text.utf8))
    }
}

extension MergePolicy {
    /// The policy's name in the outbox.
    var storedName: String {
        switch self {
        case .error: "error"
        case .mergeByPropertyStoreTrump: "storeTrump"
        case .mergeByPropertyObjectTrump: "objectTrump"
        case .overwrite: "overwrite"
        case .rollback: "rollback"
        }
    }

    init?(storedName: String) {
        let all: [MergePolicy] = [.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback]
        guard let policy = all.first(where: { $0.storedName == storedName }) else { return nil }
        self = policy
    }
}
