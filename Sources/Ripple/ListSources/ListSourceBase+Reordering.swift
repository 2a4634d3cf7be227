import RippleDiff

// MARK: - Interactive reordering

extension ListSourceBase {
    /// Whether the user may drag the item at `path`: reordering is allowed and `path` names a
    /// rendered item (not the loading row).
    ///
    /// - Parameter path: A row on screen.
    public func canMoveItem(at path: ElementPath) -> Bool {
        allowsReordering && renderedItem(at: path) != nil
    }

    /// Where an item dragged from `source` lands when the user drops it at `proposed`: the
    /// proposed path, kept among the rendered items (never after the loading row).
    ///
    /// - Parameters:
    ///   - source: The dragged item's path.
    ///   - proposed: Where the view proposes to drop it, in the coordinates after the move.
    /// - Returns: A path ``moveItem(from:to:)`` accepts.
    public func targetPath(forMovingItemFrom source: ElementPath, proposed: ElementPath) -> ElementPath {
        let counts = renderer.renderedCounts
        guard !counts.isEmpty else { return source }
        let section = min(max(proposed.section, 0), counts.count - 1)
        let last = counts[section] - (section == source.section ? 1 : 0)
        return ElementPath(item: min(max(proposed.item, 0), last), section: section)
    }

    /// Takes the user's move of an item, which the view shows already (UIKit's
    /// `tableView(_:moveRowAt:to:)`): the source moves the element in its collection
    /// (`ObservableCollection.move(from:to:)`, `SectionedCollection.moveItem(from:to:)`), and
    /// renders the event that comes back, exactly that one move, without a second animation.
    ///
    /// - The rendered list takes the move at once, so the view's data-source questions are
    ///   answered as it shows the list.
    /// - When the collection's next event is exactly that move, the source adopts its snapshot
    ///   with no batch (``ListSourceStatistics/userMoves``).
    /// - When the collection had a change on its way (its version is not the rendered one), or
    ///   its next event is anything else, or the move is not one the user could make (from the
    ///   loading row or no rendered item, to a path ``targetPath(forMovingItemFrom:proposed:)``
    ///   would not give), the view reloads (``ListReloadReason/interruptedMove``) and shows the
    ///   list as it is.
    ///
    /// ``allowsReordering`` decides which rows the user may drag (``canMoveItem(at:)``), not this
    /// method: an app whose delegate answers `canMoveRowAt` itself gets its moves made too.
    ///
    /// A move to where the item already is does nothing. Only the table and collection views of
    /// UIKit call it for you; on AppKit, call it from your drop handler once the view shows the
    /// move (`NSTableView.moveRow(at:to:)`).
    ///
    /// - Note: The source checks that the collection has no change on its way and moves in one
    ///   step under the collection's lock (`ObservableCollection.move(from:to:ifVersion:)`,
    ///   `SectionedCollection.moveItem(from:to:ifVersion:)`): a change made on another thread
    ///   during the drag cancels it, never a trap.
    ///
    /// - Parameters:
    ///   - source: The item's path before the move.
    ///   - destination: Its path after the move: in its own section below the section's item
    ///     count, in another section up to that section's count.
    /// - Complexity: O(*n*) for *n* rendered items (or the items of the two sections involved).
    public func moveItem(from source: ElementPath, to destination: ElementPath) {
        guard source != destination else { return }
        guard renderedItem(at: source) != nil, isDropTarget(destination, from: source),
            let moved = renderedData(movingItemFrom: source, to: destination),
            moveInCollection(from: source, to: destination)
        else {
            // The view shows a move the collection did not take: show the list as it is.
            renderer.reloadRendered(because: .interruptedMove)
            return
        }
        renderer.acceptUserMove(from: source, to: destination, showing: moved)
    }

    /// Whether an item from `source` may be dropped at `destination`.
    private func isDropTarget(_ destination: ElementPath, from source: ElementPath) -> Bool {
        targetPath(forMovingItemFrom: source, proposed: destination) == destination
    }
}
