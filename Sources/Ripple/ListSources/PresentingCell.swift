/// A cell, or a header or footer view, that shows one item at a time: usually a cell presenter.
///
/// List sources hand a cell its item when they configure it for a row (``show(_:)``), and the
/// cell gives it up when it is reused (``prepareItemForReuse()``). When the item is a
/// ``Presenter`` whose view protocol the cell adopts, the cell becomes the presenter's view on
/// `show`, and stops being it on reuse, **but only if it still is**: a presenter that moved to
/// another cell in the meantime keeps its new view.
///
/// Ripple's UIKit cell bases adopt it; RippleTesting's headless cells do too.
@MainActor
public protocol PresentingCell: AnyObject {
    /// The type of the items shown.
    associatedtype Item

    /// The item shown, or `nil` for a cell that shows none (a reused cell, a loading row).
    var item: Item? { get set }
}

extension PresentingCell {
    /// Shows `newItem`, and becomes its view when it is a presenter of a view this cell adopts.
    ///
    /// - Parameter newItem: The item of the row the cell now shows.
    public func show(_ newItem: Item) {
        if let old = item as? any ViewAttaching, !(old === (newItem as AnyObject)) {
            old.detachView(ifShownIn: self)
        }
        item = newItem
        (newItem as? any ViewAttaching)?.attachView(self)
    }

    /// Shows `newItem` when it is an `Item` (or casts to one), and returns whether it did: how a
    /// list source configures a cell it knows only as an object.
    func _show(anyItem newItem: Any) -> Bool {
        guard let newItem = newItem as? Item else { return false }
        show(newItem)
        return true
    }

    /// Gives up the item before the cell is reused: detaches the cell from its presenter if the
    /// presenter still shows in this cell, and forgets the item.
    public func prepareItemForReuse() {
        (item as? any ViewAttaching)?.detachView(ifShownIn: self)
        item = nil
    }
}

/// A presenter that a cell can attach itself to as its view, without knowing the view's type.
///
/// ``Presenter`` adopts it: a cell becomes the view when it adopts the presenter's view protocol.
@MainActor
public protocol ViewAttaching: AnyObject {
    /// Makes `object` the view when it has the right type.
    ///
    /// - Parameter object: A cell or view.
    /// - Returns: Whether `object` is now the view.
    @discardableResult
    func attachView(_ object: AnyObject) -> Bool

    /// Detaches the view if it is `object`, and leaves any other view in place.
    ///
    /// - Parameter object: A cell or view that is being reused.
    func detachView(ifShownIn object: AnyObject)
}
