/// Undo and redo for a context: changes are recorded in groups, one group per event.
///
/// Foundation's `UndoManager` does not exist in swift-corelibs-foundation on Linux, so the
/// store brings its own, with `UndoManager`'s model: actions registered while undoing go to
/// the redo stack and vice versa, and a new change clears the redo stack.
///
/// An *event* is everything changed between two closings of the open group: a context closes
/// it in ``ObjectContext/processPendingChanges()``, ``ObjectContext/save()`` and before
/// ``undo()``; ``group(_:)`` makes one explicitly.
///
/// ```swift
/// context.undoManager?.group { location.name = "Work"; location.note = nil }
/// context.undoManager?.undo()      // both changes reverted
/// ```
public final class UndoStack {
    private var undoGroups: [[() -> Void]] = []
    private var redoGroups: [[() -> Void]] = []
    private var openGroup: [() -> Void] = []
    private var explicitDepth = 0
    private var running: Running = .none

    private enum Running { case none, undo, redo }

    /// How many groups are kept (0: unlimited).
    public var levelsOfUndo = 0

    /// Makes an empty stack.
    public init() {}

    /// Whether there is a group to undo (an open one included).
    public var canUndo: Bool { !openGroup.isEmpty || !undoGroups.isEmpty }

    /// Whether there is a group to redo.
    public var canRedo: Bool { !redoGroups.isEmpty }

    /// Runs `body` as one undo group.
    public func group(_ body: () throws -> Void) rethrows {
        closeGroup()
        explicitDepth += 1
        defer {
            explicitDepth -= 1
            if explicitDepth == 0 { closeGroup() }
        }
        try body()
    }

    /// Closes the open group, so later changes undo separately ("end of event").
    public func closeGroup() {
        guard explicitDepth == 0, !openGroup.isEmpty else { return }
        undoGroups.append(openGroup)
        openGroup = []
        if levelsOfUndo > 0, undoGroups.count > levelsOfUndo { undoGroups.removeFirst(undoGroups.count - levelsOfUndo) }
    }

    /// Reverts the last group (closing the open one first).
    public func undo() {
        closeGroup()
        guard let actions = undoGroups.popLast() else { return }
        redoGroups.append(run(actions, as: .undo))
    }

    /// Re-applies the last undone group.
    public func redo() {
        guard let actions = redoGroups.popLast() else { return }
        undoGroups.append(run(actions, as: .redo))
    }

    /// Forgets every group.
    public func removeAllActions() {
        undoGroups = []
        redoGroups = []
        openGroup = []
    }

    /// Records the action that reverts a change just made.
    func register(_ action: @escaping () -> Void) {
        switch running {
        case .undo, .redo: inverseActions.append(action)
        case .none:
            openGroup.append(action)
            redoGroups = []
        }
    }

    private var inverseActions: [() -> Void] = []

    private func run(_ actions: [() -> Void], as mode: Running) -> [() -> Void] {
        running = mode
        inverseActions = []
        for action in actions.reversed() { action() }
        running = .none
        defer { inverseActions = [] }
        return inverseActions
    }
}
