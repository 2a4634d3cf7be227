// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// Registering a cell for a presenter type links the two types: the cell's item type must be the
// registered type. A cell typed on one presenter, registered for another, would never be
// configured (issue 21, bug 2), so it must not compile; nor may a cell that shows no item at all,
// nor, with the short form `register(_:where:)`, a cell whose item type is not the list's.
// The headless screens take the same shape as the UIKit and AppKit glue's `source.register(_:for:)`.

import Ripple
import RippleTesting

protocol CountryRow: AnyObject, Sendable {}

final class CountryCellPresenter: CountryRow {}
final class RegionCellPresenter: CountryRow {}

final class CountryCell: HeadlessCell<CountryCellPresenter> {}

@MainActor
func registerCells(on screen: HeadlessTableScreen<any CountryRow>) {
    screen.register(CountryCell.self, for: CountryCellPresenter.self)  // a cell for its own presenter: fine
    // The short form takes only a cell whose item type is the list's element type; in a
    // heterogeneous list, `for:` names the presenter type.
    // expected-error: instance method 'register(_:where:)' requires the types
    screen.register(CountryCell.self)
    // expected-error: cannot convert value of type 'RegionCellPresenter.Type' to expected argument type 'CountryCellPresenter.Type'
    screen.register(CountryCell.self, for: RegionCellPresenter.self)
    // expected-error: requires that 'HeadlessReusableView' conform to 'PresentingCell'
    // expected-error: cannot convert value of type 'CountryCellPresenter.Type'
    screen.register(HeadlessReusableView.self, for: CountryCellPresenter.self)
}
