// This file imports Ripple and nothing of RippleDiff on purpose: it proves that `import Ripple`
// alone reaches the RippleDiff types that Ripple's public API uses.
import Ripple
import XCTest

final class ExportsTests: XCTestCase {
    func test_importRippleAlone_reachesElementPathAndTheChangeSetTypes() {
        let path = ElementPath(item: 2, section: 0)
        XCTAssertEqual(path.item, 2)

        // The change-set types of a collection's events are named without importing RippleDiff.
        let changeset: (CollectionChange<Int>) -> Changeset = { $0.changeset }
        _ = changeset
    }
}
