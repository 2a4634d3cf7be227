import Ripple
import RippleTesting
import XCTest

/// `HeadlessSwiftUIView`: renders once, then once per invalidation a settle finds, like SwiftUI.
@MainActor
final class HeadlessSwiftUIViewTests: XCTestCase {
    func test_rendersOncePerInvalidation_andNotForUnreadState() async {
        let titles = ObservableCollection(["Dune"])
        let other = ObservableCollection([0])
        let shownTitles = ObservedList(titles)
        let shownOther = ObservedList(other)
        let view = HeadlessSwiftUIView { shownTitles.elements }
        XCTAssertEqual(view.renderCount, 1)
        other.append(1)
        await view.settle()
        XCTAssertEqual(shownOther.elements, [0, 1])
        XCTAssertEqual(view.renderCount, 1, "the body does not read the other list")
        titles.append("Emma")
        await view.settle()
        XCTAssertEqual(view.output, ["Dune", "Emma"])
        XCTAssertEqual(view.renderCount, 2)
        titles.performBatchUpdates {
            titles.append("Kim")
            titles.remove(at: 0)
        }
        await view.settle()
        XCTAssertEqual(view.output, ["Emma", "Kim"])
        XCTAssertEqual(view.renderCount, 3, "a batch is one event, one render")
        XCTAssertFalse(view.isInvalidated)
    }
}
