import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// `SectionData`: a section value over its own live list of items.
final class SectionDataTests: XCTestCase {
    func testHoldsItsValueAndItsOwnItems() {
        let data = SectionData(TestHeader(id: 1), items: [TestItem(id: 1)])
        XCTAssertEqual(data.section, TestHeader(id: 1))
        XCTAssertEqual(data.items.snapshot, [TestItem(id: 1)])
        XCTAssertEqual(data.id, 1)
        XCTAssertEqual(data.snapshot, SectionSnapshot(section: TestHeader(id: 1), items: [TestItem(id: 1)]))
        XCTAssertEqual(data.description, "S1·0: [1:0]")
    }

    func testReplacingTheSectionSharesTheItems() {
        let data = SectionData(TestHeader(id: 1), items: [TestItem(id: 1)])
        let retitled = data.replacingSection(with: TestHeader(id: 1, title: 2))
        XCTAssertFalse(retitled === data)
        XCTAssertTrue(retitled.items === data.items)
        XCTAssertEqual(retitled.section.title, 2)
        let shared = SectionData(TestHeader(id: 2), sharing: data.items)
        data.items.append(TestItem(id: 2))
        XCTAssertEqual(shared.items.snapshot.ids, [1, 2])
    }

    func testSectionsOfObjectsAreToldApartByIdentity() {
        final class Presenter: Sendable {}
        let presenter = Presenter()
        let collection = SectionedCollection<Presenter, TestItem>([SectionData(presenter)])
        let recorder = EventRecorder<SectionedCollectionChange<Presenter, TestItem>>()
        let token = collection.subscribe(on: .synchronous, recorder.handler)
        collection.replace(
            with: [SectionSnapshot(section: Presenter(), items: []), SectionSnapshot(section: presenter, items: [])],
            sectionIdentity: .key({ ObjectIdentifier($0) }, contentEquals: { _, _ in true }),
            itemIdentity: .key(\.id, contentEquals: ==))
        XCTAssertEqual(recorder.events.first?.changeset.sections.inserts, [0])
        XCTAssertTrue(collection.sections[1].section === presenter)
        token.cancel()
    }
}
