// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A pagination stops at the last page only if its command says which page is the last: each run
// returns a `PageLoad`. A command whose result means something else (a `Bool` "is last" flag, read
// the wrong way round as often as not) or no result at all must not compile; before, such a
// command paginated through an overload that took any command and ignored its result (issue 43).

import Ripple
import RippleTesting

@MainActor
func paginate(_ screen: HeadlessTableScreen<Int>, _ observed: ObservedList<Int>) {
    let byFlag = CommandWithResult<Void, Bool>(nonisolatedPerform: { _ in true })
    let plain = Command(nonisolatedPerform: {})
    let pages = CommandWithResult<Void, PageLoad>(nonisolatedPerform: { _ in .lastPage })
    screen.source.paginate(with: pages)  // the one way: fine
    // expected-error: cannot convert value of type 'CommandWithResult<Void, Bool>' to expected argument type 'CommandWithResult<Void, PageLoad>'
    screen.source.paginate(with: byFlag)
    // expected-error: cannot convert value of type 'Command' (aka 'CommandWithResult<(), ()>') to expected argument type 'CommandWithResult<Void, PageLoad>'
    screen.source.paginate(with: plain)
    // expected-error: cannot convert value of type 'CommandWithResult<Void, Bool>' to expected argument type 'CommandWithResult<Void, PageLoad>'
    observed.paginate(with: byFlag)
}
