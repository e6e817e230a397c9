import DynamoAPI

extension UpdatePlan {
    /// What a standalone UpdateItem weighs against the 400 KB limit besides the finished item:
    /// the attributes the update writes (name and value, as they end up in `newItem`) plus a
    /// fixed cost per clause. DynamoDB refuses the update when either figure exceeds
    /// ``ItemSize/maximum``, so at a short key it refuses finished items a little under it.
    ///
    /// The costs (eu-west-2, 2026-08-19, dynamodb-conformance `itemSizeBySurface`): 3 bytes for
    /// the update, 19 per `SET` or `ADD` action (20 for a `SET` through a list index), 2 per
    /// `REMOVE` or `DELETE`; the value written, its name or alias and the expression text do
    /// not change them. Attributes the update leaves alone, the key among them, are not counted.
    /// Transactions and PartiQL measure the finished item only.
    ///
    /// ```swift
    /// // SET b = :pad at key {pk: "K"}: counts b's bytes + 3 + 19.
    /// ```
    public func measuredSize(writing newItem: Item) -> Int {
        var cost = 3
        // The attributes written, each once (an update has a few actions: a list beats a set).
        var written: [String] = []
        for action in actions {
            switch action {
            case .set(let path, _):
                cost += path.elements.contains(where: \.isIndex) ? 20 : 19
                if !written.contains(path.attribute) { written.append(path.attribute) }
            case .add(let path, _):
                cost += 19
                if !written.contains(path.attribute) { written.append(path.attribute) }
            case .remove, .delete:
                cost += 2
            }
        }
        for name in written {
            if let value = newItem[name] { cost += name.utf8.count + ItemSize.of(value) }
        }
        return cost
    }
}
