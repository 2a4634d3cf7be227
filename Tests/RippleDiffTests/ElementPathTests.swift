import RippleDiff
import XCTest

final class ElementPathTests: XCTestCase {
    func test_init_storesItemAndSection() {
        var path = ElementPath(item: 3, section: 1)
        XCTAssertEqual(path.item, 3)
        XCTAssertEqual(path.section, 1)
        path.item = 4
        path.section = 0
        XCTAssertEqual(path, ElementPath(item: 4, section: 0))
    }

    func test_ordering_isBySectionThenItem() {
        XCTAssertLessThan(ElementPath(item: 9, section: 0), ElementPath(item: 0, section: 1))
        XCTAssertLessThan(ElementPath(item: 1, section: 2), ElementPath(item: 2, section: 2))
        XCTAssertFalse(ElementPath(item: 2, section: 2) < ElementPath(item: 2, section: 2))
        let paths = [
            ElementPath(item: 1, section: 1), ElementPath(item: 0, section: 2),
            ElementPath(item: 5, section: 0), ElementPath(item: 0, section: 1),
        ]
        XCTAssertEqual(
            paths.sorted(),
            [
                ElementPath(item: 5, section: 0), ElementPath(item: 0, section: 1),
                ElementPath(item: 1, section: 1), ElementPath(item: 0, section: 2),
            ])
    }

    func test_ordering_isATotalOrderConsistentWithEquality() {
        let paths = (0..<3).flatMap { section in (0..<3).map { ElementPath(item: $0, section: section) } }
        for a in paths {
            for b in paths {
                // Exactly one of <, ==, > holds.
                let relations = [a < b, a == b, b < a].filter { $0 }.count
                XCTAssertEqual(relations, 1, "\(a) vs \(b)")
            }
        }
    }

    func test_hashing_distinguishesItemFromSection() {
        let paths: Set = [
            ElementPath(item: 0, section: 1), ElementPath(item: 1, section: 0), ElementPath(item: 1, section: 0),
        ]
        XCTAssertEqual(paths.count, 2)
        XCTAssertNotEqual(ElementPath(item: 0, section: 1), ElementPath(item: 1, section: 0))
    }
}
