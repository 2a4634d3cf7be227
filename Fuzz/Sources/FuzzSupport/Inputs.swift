import RippleDiff

/// A row of a fuzzed list: `id` is its identity, `content` what its cell shows (a change is an
/// update).
struct FuzzItem: Identifiable, Hashable, CustomStringConvertible {
    var id: Int
    var content: Int

    init(id: Int, content: Int) {
        self.id = id
        self.content = content
    }

    var description: String { content == 0 ? "\(id)" : "\(id)'\(content)" }
}

/// A section value of a fuzzed sectioned list: `id` is its identity, `title` its header.
struct FuzzHeader: Identifiable, Hashable, CustomStringConvertible {
    var id: Int
    var title: Int

    init(id: Int, title: Int) {
        self.id = id
        self.title = title
    }

    var description: String { title == 0 ? "S\(id)" : "S\(id)'\(title)" }
}

/// A section of a fuzzed sectioned list.
typealias FuzzSection = SectionSnapshot<FuzzHeader, FuzzItem>

extension FuzzBytes {
    /// Two versions of a flat list.
    ///
    /// The first byte picks the shape: two independent lists over a small alphabet of identifiers
    /// (repeats likely, on either side), or a list of unique identifiers and an edit of it
    /// (deletes, content changes, inserts, moves), which is what real updates look like.
    mutating func flatPair() -> (source: [FuzzItem], target: [FuzzItem]) {
        if byte() & 1 == 0 {
            let alphabet = int(in: 1...24)
            func list(_ bytes: inout FuzzBytes) -> [FuzzItem] {
                (0..<bytes.int(below: 33)).map { _ in
                    FuzzItem(id: bytes.int(below: alphabet), content: bytes.int(below: 2))
                }
            }
            let source = list(&self)
            return (source, list(&self))
        }
        let source = (0..<int(below: 41)).map { FuzzItem(id: $0, content: 0) }
        var next = source.count
        return (source, edited(source, nextID: &next))
    }

    /// An edit of `items`: each is kept, deleted or changed; then new items are inserted and some
    /// are moved. New identifiers start at `nextID`.
    mutating func edited(_ items: [FuzzItem], nextID: inout Int) -> [FuzzItem] {
        var result: [FuzzItem] = []
        for var item in items {
            let fate = byte()
            if fate < 48 { continue }
            if fate >= 208 { item.content ^= 1 }
            result.append(item)
        }
        for _ in 0..<int(below: 5) {
            result.insert(FuzzItem(id: nextID, content: 0), at: int(below: result.count + 1))
            nextID += 1
        }
        if !result.isEmpty {
            for _ in 0..<int(below: 5) {
                let moved = result.remove(at: int(below: result.count))
                result.insert(moved, at: int(below: result.count + 1))
            }
        }
        return result
    }

    /// Two versions of a sectioned list.
    ///
    /// The first byte picks the shape: independent lists over small alphabets of section and item
    /// identifiers (repeats likely at both levels), or unique identifiers and an edit (sections
    /// deleted, retitled, inserted and moved; items deleted, changed, inserted, moved inside their
    /// section, and moved across sections, including out of deleted and into inserted ones).
    mutating func sectionedPair() -> (source: [FuzzSection], target: [FuzzSection]) {
        if byte() & 1 == 0 {
            let sectionAlphabet = int(in: 1...6)
            let itemAlphabet = int(in: 1...16)
            func list(_ bytes: inout FuzzBytes) -> [FuzzSection] {
                (0..<bytes.int(below: 6)).map { _ in
                    FuzzSection(
                        section: FuzzHeader(id: bytes.int(below: sectionAlphabet), title: bytes.int(below: 2)),
                        items: (0..<bytes.int(below: 7)).map { _ in
                            FuzzItem(id: bytes.int(below: itemAlphabet), content: bytes.int(below: 2))
                        })
                }
            }
            let source = list(&self)
            return (source, list(&self))
        }
        var nextItem = 0
        var nextSection = 0
        func section(_ bytes: inout FuzzBytes) -> FuzzSection {
            defer { nextSection += 1 }
            let items = (0..<bytes.int(below: 7)).map { offset in FuzzItem(id: nextItem + offset, content: 0) }
            nextItem += items.count
            return FuzzSection(section: FuzzHeader(id: nextSection, title: 0), items: items)
        }
        let source = (0..<int(below: 6)).map { _ in section(&self) }
        var target: [FuzzSection] = []
        var travellers: [FuzzItem] = []
        for var kept in source {
            let fate = byte()
            if fate < 32 {
                travellers += Array(kept.items).filter { _ in byte() < 128 }
                continue
            }
            if fate >= 224 { kept.section.title ^= 1 }
            kept.items = ListSnapshot(edited(Array(kept.items), nextID: &nextItem))
            if !kept.items.isEmpty, byte() < 64 {
                travellers.append(kept.items.remove(at: int(below: kept.items.count)))
            }
            target.append(kept)
        }
        for _ in 0..<int(below: 3) { target.insert(section(&self), at: int(below: target.count + 1)) }
        if target.count > 1 {
            for _ in 0..<int(below: 3) {
                let moved = target.remove(at: int(below: target.count))
                target.insert(moved, at: int(below: target.count + 1))
            }
        }
        if !target.isEmpty {
            for item in travellers {
                let s = int(below: target.count)
                target[s].items.insert(item, at: int(below: target[s].items.count + 1))
            }
        }
        return (source, target)
    }

    /// A change-set made by hand from raw numbers: usually invalid, sometimes valid. Counts and
    /// offsets are small, with the extremes of `Int` now and then.
    mutating func rawChangeset() -> Changeset {
        func offset(_ bytes: inout FuzzBytes) -> Int {
            bytes.chance(16) ? bytes.extremeOrSmall() : bytes.int(below: 10)
        }
        func offsets(_ bytes: inout FuzzBytes) -> [Int] {
            (0..<bytes.int(below: 6)).map { _ in offset(&bytes) }
        }
        func pairs(_ bytes: inout FuzzBytes) -> [Changeset.OffsetPair] {
            (0..<bytes.int(below: 5)).map { _ in Changeset.OffsetPair(source: offset(&bytes), target: offset(&bytes)) }
        }
        let sourceCount = chance(8) ? extremeOrSmall() : int(below: 10)
        let targetCount = chance(8) ? extremeOrSmall() : int(below: 10)
        // Counts too large to allocate are reported by `validationFailure()` only after it allocates
        // a table per side; keep them out, as a real list could not have them either.
        return Changeset(
            sourceCount: sourceCount > 1 << 16 ? -1 : sourceCount,
            targetCount: targetCount > 1 << 16 ? -1 : targetCount,
            deletes: offsets(&self), inserts: offsets(&self), moves: pairs(&self), updates: pairs(&self))
    }

    /// A valid change-set made from an `origins` list, as a collection folds a batch.
    mutating func originsChangeset() -> Changeset {
        let sourceCount = int(below: 24)
        var unused = Array(0..<sourceCount)
        var origins: [Int] = []
        for _ in 0..<int(below: 24) {
            if !unused.isEmpty && byte() < 192 {
                origins.append(unused.remove(at: int(below: unused.count)))
            } else {
                origins.append(-1)
            }
        }
        let updated = (0..<int(below: 4)).map { _ in int(below: max(sourceCount, 1)) }.filter { $0 < sourceCount }
        return Changeset(sourceCount: sourceCount, origins: origins, updatedSources: updated)
    }

    /// A batch of raw table or collection view calls, with indices that are mostly small and
    /// sometimes extreme.
    mutating func rawBatch() -> [BatchCall] {
        func index(_ bytes: inout FuzzBytes) -> Int {
            bytes.chance(24) ? bytes.extremeOrSmall() : bytes.int(below: 6)
        }
        func path(_ bytes: inout FuzzBytes) -> ElementPath {
            ElementPath(item: index(&bytes), section: bytes.chance(32) ? index(&bytes) : bytes.int(below: 3))
        }
        return (0..<int(below: 10)).map { _ in
            switch int(below: 8) {
            case 0: .deleteSection(index(&self))
            case 1: .insertSection(index(&self))
            case 2: .reloadSection(index(&self))
            case 3: .moveSection(index(&self), index(&self))
            case 4: .deleteItem(path(&self))
            case 5: .insertItem(path(&self))
            case 6: .reloadItem(path(&self))
            default: .moveItem(path(&self), path(&self))
            }
        }
    }
}

/// One call of a raw batch, kept apart from RippleTesting's `BatchUpdate.Operation` so that the
/// fuzz input format does not change when that type does.
enum BatchCall: CustomStringConvertible {
    case deleteSection(Int)
    case insertSection(Int)
    case reloadSection(Int)
    case moveSection(Int, Int)
    case deleteItem(ElementPath)
    case insertItem(ElementPath)
    case reloadItem(ElementPath)
    case moveItem(ElementPath, ElementPath)

    var description: String {
        switch self {
        case .deleteSection(let s): "deleteSection(\(s))"
        case .insertSection(let s): "insertSection(\(s))"
        case .reloadSection(let s): "reloadSection(\(s))"
        case .moveSection(let a, let b): "moveSection(\(a), \(b))"
        case .deleteItem(let p): "deleteItem(\(p))"
        case .insertItem(let p): "insertItem(\(p))"
        case .reloadItem(let p): "reloadItem(\(p))"
        case .moveItem(let a, let b): "moveItem(\(a), \(b))"
        }
    }
}
