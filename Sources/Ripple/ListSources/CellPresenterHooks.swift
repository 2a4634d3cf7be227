/// A width and a height in points: a cell's size, or the size of the list view it lays out in.
///
/// Ripple's own `CGSize`, so that cell presenters and their tests need no UIKit or Foundation.
public struct LayoutSize: Sendable, Hashable {
    /// The width, in points.
    public var width: Double
    /// The height, in points.
    public var height: Double

    /// Creates a size.
    ///
    /// - Parameters:
    ///   - width: The width, in points.
    ///   - height: The height, in points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A cell presenter that knows the size of its cell (GenericCellPresenters' `cellSize`).
///
/// A table uses the height as the row's height; a collection view with a flow layout uses both as
/// the item's size. Rows whose presenter does not adopt it keep the view's own size (the table's
/// `rowHeight`, the flow layout's `itemSize`).
///
/// ```swift
/// import Ripple
///
/// final class BannerCellPresenter: SizedCellPresenter {
///     func cellSize(in bounds: LayoutSize) -> LayoutSize {
///         LayoutSize(width: bounds.width, height: bounds.width * 9 / 16)
///     }
/// }
/// ```
@MainActor
public protocol SizedCellPresenter {
    /// The size of this presenter's cell.
    ///
    /// - Parameter bounds: The size of the list view's bounds.
    /// - Returns: The cell's size; a table reads only its height.
    func cellSize(in bounds: LayoutSize) -> LayoutSize
}

/// A cell presenter that hears when its cell is selected and deselected (GenericCellPresenters'
/// `didSelectCell`/`didDeselectCell`). Implement either or both.
///
/// The source calls it before ``ListSourceBase/onItemEvent`` and the ``ListSourceBase/selectItem``
/// command.
///
/// ```swift
/// import Ripple
///
/// final class CountryCellPresenter: SelectableCellPresenter {
///     private(set) var isChecked = false
///     func didSelectCell() { isChecked = true }
///     func didDeselectCell() { isChecked = false }
/// }
/// ```
@MainActor
public protocol SelectableCellPresenter {
    /// The user selected this presenter's cell.
    func didSelectCell()
    /// The user deselected this presenter's cell.
    func didDeselectCell()
}

extension SelectableCellPresenter {
    /// Does nothing.
    public func didSelectCell() {}
    /// Does nothing.
    public func didDeselectCell() {}
}

/// A cell presenter whose cell has swipe actions: a table row's leading or trailing actions
/// (`UIContextualAction` on iOS, `NSTableViewRowAction` on macOS).
///
/// ```swift
/// import Ripple
///
/// final class MailCellPresenter: SwipeableCellPresenter {
///     var onDelete: @MainActor @Sendable () -> Void = {}
///
///     func swipeActions(on edge: SwipeEdge) -> [SwipeAction] {
///         guard edge == .trailing else { return [] }
///         return [SwipeAction(title: "Delete", style: .destructive) { [onDelete] in onDelete(); return true }]
///     }
/// }
/// ```
@MainActor
public protocol SwipeableCellPresenter {
    /// The actions to show when the user swipes the cell from `edge`, first action outermost;
    /// none shows the view's default.
    ///
    /// - Parameter edge: The edge the swipe starts from.
    func swipeActions(on edge: SwipeEdge) -> [SwipeAction]
}
