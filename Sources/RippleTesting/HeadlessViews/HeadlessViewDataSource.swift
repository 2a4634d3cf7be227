/// A data source for ``HeadlessTableView`` and ``HeadlessCollectionView``: the values to show,
/// section by section.
///
/// The views hold their data source weakly, as UIKit does; a view whose data source is gone reads
/// no section at all. Views built with a closure instead hold the closure strongly.
///
/// ```swift
/// final class Model: HeadlessViewDataSource {
///     var names = ["a", "b"]
///     func sectionsForHeadlessView() -> [[String]] { [names] }
/// }
/// let model = Model()
/// let tableView = HeadlessTableView(dataSource: model)
/// ```
///
/// Follow UIKit's timing (R14): return the old values until the updates closure of a batch runs,
/// and the new values once it has run.
public protocol HeadlessViewDataSource<Element>: AnyObject {
    /// The value a cell shows.
    associatedtype Element

    /// The values to show now: one array per section, one value per row or item.
    ///
    /// - Returns: The sections, in order.
    func sectionsForHeadlessView() -> [[Element]]
}
