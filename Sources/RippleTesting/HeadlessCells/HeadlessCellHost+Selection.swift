import Ripple
import RippleDiff

extension HeadlessCellHost {
    // MARK: - Gestures

    /// Taps a row, as the user does: highlight and unhighlight, then the selection, as UIKit sends
    /// them.
    ///
    /// With the view given at init, the row becomes selected in the view's ``HeadlessTableView/selectedPaths``;
    /// with single selection, the row selected before is deselected first and the source hears
    /// `.deselected` for it; with multiple selection, tapping a selected row deselects it instead.
    /// The source then hears `.selected` (or `.deselected`), which reaches a
    /// `SelectableCellPresenter`, `onItemEvent` and the `selectItem` command.
    ///
    /// - Parameter path: A row on screen.
    /// - Precondition: `path` is on screen.
    public func tap(_ path: ElementPath) {
        requireOnScreen(path, method: "tap(_:)")
        source.handle(.highlighted, at: path)
        source.handle(.unhighlighted, at: path)
        if let view = selectionView {
            if view.allowsMultipleSelection && view.selectedPaths.contains(path) {
                return deselect(path)
            }
            if !view.allowsMultipleSelection {
                for old in view.selectedPaths where old != path {
                    view._deselect(old)
                    source.handle(.deselected, at: old)
                }
            }
            view._select(path)
            showSelection()
        }
        source.handle(.selected, at: path)
    }

    /// Deselects a selected row, as the user does (a tap on a selected row with multiple
    /// selection): the view's selection loses it, then the source hears `.deselected`, which
    /// reaches a `SelectableCellPresenter` and `onItemEvent`.
    ///
    /// - Parameter path: A row on screen, selected when the host has a view.
    /// - Precondition: `path` is on screen and, with a view, selected.
    public func deselect(_ path: ElementPath) {
        requireOnScreen(path, method: "deselect(_:)")
        if let view = selectionView {
            let selected = view.selectedPaths
            precondition(
                selected.contains(path),
                "HeadlessCellHost.deselect(_:): row \(path) is not selected; selected rows: \(selected)")
            view._deselect(path)
            showSelection()
        }
        source.handle(.deselected, at: path)
    }

    /// Marks the cells on screen as selected or not, from the view's selection.
    func showSelection() {
        guard let view = selectionView else { return }
        let selected = Set(view.selectedPaths)
        for entry in visibleCells { entry.cell.isSelected = selected.contains(entry.path) }
    }

    private func requireOnScreen(_ path: ElementPath, method: String) {
        guard visiblePaths.contains(path) else {
            preconditionFailure(
                "HeadlessCellHost.\(method): row \(path) is not on screen; rows on screen: \(visiblePaths)")
        }
    }
}
