import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// A cell presenter that knows its row's path.
private final class Track: IndexedCellPresenter {
    let id: Int
    var path: ElementPath?
    init(_ id: Int) { self.id = id }
}

/// `IndexedCellPresenter` (issue 36, item 3): the source keeps each presenter's `path` current,
/// for the rows it shows and the rows off screen alike, without `willDisplay`; a removed row's
/// presenter has none. Checked against the rendered list after random events (seeded; a failure
/// names its seed).
@MainActor
final class ListSourcePositionsTests: XCTestCase {
    /// After each event, every rendered presenter's path is its row, and every presenter that
    /// left the list has none.
    private func checkPaths(rendered: [[Track]], everyTrack: [Track]) -> String? {
        var shown: Set<ObjectIdentifier> = []
        for (section, tracks) in rendered.enumerated() {
            for (item, track) in tracks.enumerated() {
                shown.insert(ObjectIdentifier(track))
                let path = ElementPath(item: item, section: section)
                if track.path != path {
                    return "track \(track.id) at \(path) says \(track.path.map { "\($0)" } ?? "nil")"
                }
            }
        }
        for track in everyTrack where !shown.contains(ObjectIdentifier(track)) && track.path != nil {
            return "track \(track.id) left the list but says \(track.path!)"
        }
        return nil
    }

    func test_flat_everyPresenterKnowsItsPath_afterRandomEvents() async {
        for seed: UInt64 in 0..<40 {
            var random = SplitMix64(seed: seed)
            var made: [Track] = []
            func fresh() -> Track {
                made.append(Track(made.count))
                return made[made.count - 1]
            }
            /// A fresh presenter with the same id: an update, by `.key(\.id)`, that brings another object.
            func twin(of track: Track) -> Track {
                made.append(Track(track.id))
                return made[made.count - 1]
            }
            let list = ObservableCollection((0..<random.int(below: 12)).map { _ in fresh() })
            let screen = HeadlessTableScreen(collection: list, visibleRowCount: 4)
            screen.register(HeadlessCell<Track>.self)
            screen.source.reloadThreshold = random.chance(1, in: 3) ? 6 : nil
            await screen.settle()
            for step in 0..<30 {
                let count = list.count
                switch random.int(below: 10) {
                case 0: list.append(fresh())
                case 1: list.insert(fresh(), at: random.int(in: 0...count))
                case 2 where count > 0: list.remove(at: random.int(below: count))
                case 3 where count > 1: list.move(from: random.int(below: count), to: random.int(below: count))
                case 4:
                    var next = Array(list.snapshot)
                    random.shuffle(&next)
                    next = next.map { random.chance(1, in: 3) ? fresh() : $0 }
                    if random.chance(1, in: 2) { next.append(fresh()) }
                    list.replace(with: next, identity: .object)
                case 5 where count > 2:
                    list.performBatchUpdates {
                        list.remove(at: 0)
                        list.insert(fresh(), at: random.int(in: 0...(count - 1)))
                        list.move(from: 0, to: count - 1)
                    }
                // Issue 43, bug 4: an update that puts another object in a kept row.
                case 7 where count > 0: list[random.int(below: count)] = fresh()
                case 8 where count > 0:
                    let offset = random.int(below: count)
                    list[offset] = list[offset]
                case 9:
                    let next = list.snapshot.map { random.chance(1, in: 3) ? twin(of: $0) : $0 }
                    list.replace(with: next, identity: .key({ $0.id }, contentEquals: { $0 === $1 }))
                default: list.insert(contentsOf: [fresh(), fresh()], at: random.int(in: 0...count))
                }
                await screen.settle()
                if let failure = checkPaths(rendered: [Array(screen.source.renderedItems)], everyTrack: made) {
                    return XCTFail("seed \(seed), step \(step): \(failure)")
                }
            }
        }
    }

    func test_sectioned_everyPresenterKnowsItsPath_afterRandomEvents() async {
        for seed: UInt64 in 0..<40 {
            var random = SplitMix64(seed: seed)
            var made: [Track] = []
            func fresh() -> Track {
                made.append(Track(made.count))
                return made[made.count - 1]
            }
            func twin(of track: Track) -> Track {
                made.append(Track(track.id))
                return made[made.count - 1]
            }
            var nextSection = 0
            func section() -> SectionData<String, Track> {
                nextSection += 1
                return SectionData("S\(nextSection)", items: (0..<random.int(below: 4)).map { _ in fresh() })
            }
            let sections = SectionedCollection<String, Track>((0..<random.int(in: 1...3)).map { _ in section() })
            let screen = HeadlessTableScreenWithSection(collection: sections, visibleRowCount: 5)
            screen.register(HeadlessCell<Track>.self)
            await screen.settle()
            for step in 0..<30 {
                let count = sections.numberOfSections
                /// A random path of an item, or `nil` when the list has none.
                func randomItem() -> ElementPath? {
                    let filled = (0..<count).filter { sections.numberOfItems(inSection: $0) > 0 }
                    guard !filled.isEmpty else { return nil }
                    let section = filled[random.int(below: filled.count)]
                    return ElementPath(
                        item: random.int(below: sections.numberOfItems(inSection: section)), section: section)
                }
                switch random.int(below: 9) {
                case 0: sections.insertSection(section(), at: random.int(in: 0...count))
                case 1 where count > 1: _ = sections.removeSection(at: random.int(below: count))
                case 2 where count > 1:
                    sections.moveSection(from: random.int(below: count), to: random.int(below: count))
                case 3 where count > 0:
                    let target = random.int(below: count)
                    let items = sections.numberOfItems(inSection: target)
                    sections.insertItem(fresh(), at: ElementPath(item: random.int(in: 0...items), section: target))
                case 4 where count > 0:
                    let from = random.int(below: count)
                    let items = sections.numberOfItems(inSection: from)
                    guard items > 0 else { continue }
                    let to = random.int(below: count)
                    let toItems = sections.numberOfItems(inSection: to) - (from == to ? 1 : 0)
                    sections.moveItem(
                        from: ElementPath(item: random.int(below: items), section: from),
                        to: ElementPath(item: random.int(in: 0...toItems), section: to))
                // Issue 43, bug 4: an update that puts another object, or the same one, in a kept row.
                case 6:
                    guard let path = randomItem() else { continue }
                    sections[path] = fresh()
                case 7:
                    guard let path = randomItem() else { continue }
                    sections[path] = sections[path]
                case 8:
                    let next = sections.snapshot.map { snapshot in
                        SectionSnapshot(
                            section: snapshot.section,
                            items: snapshot.items.map { random.chance(1, in: 3) ? twin(of: $0) : $0 })
                    }
                    sections.replace(
                        with: next, sectionIdentity: .value,
                        itemIdentity: .key({ $0.id }, contentEquals: { $0 === $1 }))
                default:
                    let next = sections.snapshot.map { snapshot in
                        SectionSnapshot(
                            section: snapshot.section,
                            items: snapshot.items.map { random.chance(1, in: 3) ? fresh() : $0 })
                    }
                    sections.replace(with: next, sectionIdentity: .value, itemIdentity: .object)
                }
                await screen.settle()
                let rendered = screen.source.renderedSections.map { Array($0.items) }
                if let failure = checkPaths(rendered: rendered, everyTrack: made) {
                    return XCTFail("seed \(seed), step \(step): \(failure)")
                }
            }
        }
    }

    /// A configured cell's presenter knows its path at once, even before any change.
    func test_theFirstRender_placesEveryRow_onScreenOrNot() async {
        let tracks = (0..<30).map(Track.init)
        let screen = HeadlessTableScreen(collection: ObservableCollection(tracks), visibleRowCount: 3)
        screen.register(HeadlessCell<Track>.self)
        await screen.settle()
        XCTAssertEqual(tracks.map(\.path?.item), Array(0..<30))
    }
}
