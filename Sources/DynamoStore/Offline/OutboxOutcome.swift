import Foundation

/// A save waiting in the outbox to be replayed.
public struct OutboxEntry: Sendable, Hashable {
    /// Its place in save order (replays go in this order).
    public let sequence: Int64
    /// The objects it writes.
    public let objectIDs: [ObjectID]
    /// The merge policy of the context that saved it (its replay resolves conflicts with it).
    public let mergePolicy: MergePolicy
    /// Replays that stopped on a transient DynamoDB error (throttling, a 500); transport errors
    /// (no network) do not count.
    public let attempts: Int
}

/// A save that can never succeed (DynamoDB refused it, or a conflict under
/// ``MergePolicy/error``): it left the outbox, kept here until the app discards it.
public struct FailedOutboxEntry: Sendable, Hashable {
    /// Its place in save order.
    public let sequence: Int64
    /// The objects it would have written.
    public let objectIDs: [ObjectID]
    /// Why it failed (the error's description).
    public let error: String
}

/// What the replay of one outbox entry did, object by object.
public struct OutboxOutcome: Sendable, Hashable {
    /// How one object of the save ended.
    public enum Resolution: Sendable, Hashable {
        /// Stored as saved, without a conflict.
        case applied
        /// The row had changed; the merge policy kept this device's values (object trump,
        /// overwrite).
        case objectWon
        /// The row had changed; the result holds values of both (a property merge).
        case merged
        /// The row had changed; the store's values were kept and this device's change dropped
        /// (store trump on every changed property, rollback).
        case rolledBack
        /// The entry failed as a whole (see ``OutboxOutcome/failure``).
        case failed
    }

    /// The entry's place in save order.
    public let sequence: Int64
    /// Each object's resolution.
    public let objects: [ObjectID: Resolution]
    /// Why the entry can never succeed, when it failed (it is then a ``FailedOutboxEntry``).
    public let failure: String?

    /// Makes an outcome (the replay makes them; tests compare with them).
    ///
    /// - Parameters:
    ///   - sequence: the entry's place in save order.
    ///   - objects: each object's resolution.
    ///   - failure: why the entry failed, or `nil`.
    public init(sequence: Int64, objects: [ObjectID: Resolution], failure: String?) {
        self.sequence = sequence
        self.objects = objects
        self.failure = failure
    }
}

extension Notification.Name {
    /// Posted (on `NotificationCenter.default`) after each replayed outbox entry; `userInfo`'s
    /// ``OfflineStore/outcomeKey`` holds the ``OutboxOutcome``.
    public static let dynamoStoreOutboxDidReplay = Notification.Name("DynamoStoreOutboxDidReplay")
}
