import Ripple

/// A headless sequential table view is a ``SequentialRowView``, so Ripple's list sources drive it
/// exactly as they drive an `NSTableView`: every call they make is checked as it is made, and every
/// batch against the data source when it ends.
///
/// The view's own methods and properties, ``HeadlessSequentialTableView/numberOfRows``,
/// ``HeadlessSequentialTableView/isInWindow``, ``HeadlessSequentialTableView/reloadData()``,
/// ``HeadlessSequentialTableView/beginUpdates()``, ``HeadlessSequentialTableView/endUpdates()``,
/// ``HeadlessSequentialTableView/removeRows(_:)``, ``HeadlessSequentialTableView/insertRows(_:)``,
/// ``HeadlessSequentialTableView/moveRow(at:to:)`` and
/// ``HeadlessSequentialTableView/reloadRows(_:)``, bear the protocol's names, so the conformance
/// needs nothing more.
extension HeadlessSequentialTableView: SequentialRowView {}
