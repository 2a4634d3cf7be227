import RippleDiff

// MARK: - What cell presenters say about their cells

extension ListSourceBase {
    /// The size of the cell at `path`, from its presenter when it adopts ``SizedCellPresenter``.
    ///
    /// - Parameters:
    ///   - path: A row on screen.
    ///   - bounds: The size of the list view's bounds.
    /// - Returns: The presenter's size, or `nil` for the view's own size: the presenter does not
    ///   adopt the protocol, or `path` is the loading row or no rendered item.
    public func cellSize(at path: ElementPath, in bounds: LayoutSize) -> LayoutSize? {
        (renderedItem(at: path) as? any SizedCellPresenter)?.cellSize(in: bounds)
    }

    /// The swipe actions of the cell at `path`, from its presenter when it adopts
    /// ``SwipeableCellPresenter``.
    ///
    /// - Parameters:
    ///   - edge: The edge the swipe starts from.
    ///   - path: A row on screen.
    /// - Returns: The actions, or none: the presenter does not adopt the protocol, or `path` is the
    ///   loading row or no rendered item.
    public func swipeActions(_ edge: SwipeEdge, at path: ElementPath) -> [SwipeAction] {
        (renderedItem(at: path) as? any SwipeableCellPresenter)?.swipeActions(on: edge) ?? []
    }

    /// Tells the item's presenter that its cell was selected or deselected, when it adopts
    /// ``SelectableCellPresenter``.
    func tellPresenter(of item: Item, about event: ListItemEvent) {
        guard let presenter = item as? any SelectableCellPresenter else { return }
        switch event {
        case .selected: presenter.didSelectCell()
        case .deselected: presenter.didDeselectCell()
        case .highlighted, .unhighlighted, .willDisplay, .didEndDisplaying: break
        }
    }
}
