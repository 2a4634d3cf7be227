import RippleDiff

extension SectionedCollection {
    /// Runs one section-level mutation under the lock and publishes its event after unlocking.
    ///
    /// `body` changes `state.entries` and returns the section-level change-set and the item counts
    /// before it (items inside surviving sections do not change); inside a batch it keeps the
    /// batch's origins in step itself and returns `nil`.
    func mutateSections(_ body: (inout State) -> (sections: Changeset, sourceItemCounts: [Int])?) {
        let mustDrain = withState { state -> Bool in
            let change = body(&state)
            state.mutations &+= 1
            guard let (sections, counts) = change else { return false }
            return state.publish(
                SectionedChangeset(sections: sections, sourceItemCounts: counts, targetItemCounts: state.itemCounts))
        }
        if mustDrain { drain() }
    }

    /// Adds a section at the end.
    ///
    /// Its items arrive with it: from now on they live here, and changes made through `data.items`
    /// are changes of this collection.
    ///
    /// - Precondition: No sectioned collection holds `data.items` (see "Sharing" in
    ///   ``SectionData``); otherwise the call traps, naming the position.
    ///
    /// - Parameter data: The section to add.
    /// - Complexity: O(*s*) for *s* sections.
    public func appendSection(_ data: SectionData<Section, Item>) {
        insertSection(data, at: nil, method: "appendSection(_:)")
    }

    /// Inserts a section at `position`.
    ///
    /// Its items arrive with it: from now on they live here, and changes made through `data.items`
    /// are changes of this collection.
    ///
    /// - Precondition: No sectioned collection holds `data.items` (see "Sharing" in
    ///   ``SectionData``); otherwise the call traps, naming the position.
    ///
    /// - Parameters:
    ///   - data: The section to insert.
    ///   - position: A section offset in `0...numberOfSections`.
    /// - Complexity: O(*s*) for *s* sections.
    public func insertSection(_ data: SectionData<Section, Item>, at position: Int) {
        insertSection(data, at: position, method: "insertSection(_:at:)")
    }

    func insertSection(_ data: SectionData<Section, Item>, at position: Int?, method: String) {
        mutateSections { state in
            let count = state.entries.count
            let position = position ?? count
            guard position >= 0 && position <= count else {
                Self.sectionOutOfRange(method, position, count, endInclusive: true)
            }
            let before = state.itemCounts
            let entry = attach(data, at: position, method: method, state: &state)
            state.entries.insert(entry, at: position)
            if state.batch != nil {
                state.batch!.sectionOrigins.insert(-1, at: position)
                state.batch!.itemOrigins.insert([Int](repeating: -1, count: entry.items.count), at: position)
                return nil
            }
            return (Changeset(sourceCount: count, targetCount: count + 1, inserts: [position]), before)
        }
    }

    /// Removes and returns the section at `position`.
    ///
    /// Its items leave with it: `items` holds them on its own again, and its changes are no longer
    /// published here. This collection no longer keeps the section alive.
    ///
    /// - Parameter position: A section offset in `0..<numberOfSections`.
    /// - Returns: The removed section.
    /// - Complexity: O(*s*) for *s* sections.
    @discardableResult
    public func removeSection(at position: Int) -> SectionData<Section, Item> {
        var removed: Entry?
        mutateSections { state in
            let count = state.entries.count
            guard position >= 0 && position < count else {
                Self.sectionOutOfRange("removeSection(at:)", position, count)
            }
            let before = state.itemCounts
            let entry = state.entries.remove(at: position)
            Self.detach(entry)
            removed = entry
            if state.batch != nil {
                state.batch!.sectionOrigins.remove(at: position)
                state.batch!.itemOrigins.remove(at: position)
                return nil
            }
            return (Changeset(sourceCount: count, targetCount: count - 1, deletes: [position]), before)
        }
        return removed!.data
    }

    /// Removes every section.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    public func removeAllSections() {
        mutateSections { state in
            let count = state.entries.count
            guard count > 0 else { return nil }
            let before = state.itemCounts
            for entry in state.entries { Self.detach(entry) }
            state.released.append(state.entries)
            state.entries.removeAll()
            if state.batch != nil {
                state.batch!.sectionOrigins.removeAll()
                state.batch!.itemOrigins.removeAll()
                return nil
            }
            return (Changeset(sourceCount: count, targetCount: 0, deletes: Array(0..<count)), before)
        }
    }

    /// Moves the section at `source` so that it ends at `destination`, as
    /// `UITableView.moveSection(_:toSection:)` does. Its items move with it.
    ///
    /// - Parameters:
    ///   - source: The section's offset now, in `0..<numberOfSections`.
    ///   - destination: The section's offset afterwards, in `0..<numberOfSections`.
    /// - Complexity: O(*s*) for *s* sections.
    public func moveSection(from source: Int, to destination: Int) {
        mutateSections { state in
            let count = state.entries.count
            guard source >= 0 && source < count else {
                Self.sectionOutOfRange("moveSection(from:to:)", source, count)
            }
            guard destination >= 0 && destination < count else {
                Self.sectionOutOfRange("moveSection(from:to:)", destination, count)
            }
            guard source != destination else { return nil }
            let before = state.itemCounts
            state.entries.insert(state.entries.remove(at: source), at: destination)
            if state.batch != nil {
                state.batch!.sectionOrigins.insert(state.batch!.sectionOrigins.remove(at: source), at: destination)
                state.batch!.itemOrigins.insert(state.batch!.itemOrigins.remove(at: source), at: destination)
                return nil
            }
            return (
                Changeset(
                    sourceCount: count, targetCount: count,
                    moves: [Changeset.OffsetPair(source: source, target: destination)]),
                before
            )
        }
    }

    /// Puts `data` in place of the section at `position`.
    ///
    /// When `data` shares the old section's `items` (see
    /// ``SectionData/replacingSection(with:)``), the section is updated (UIKit reloads it) and its
    /// items stay. Otherwise the old section is deleted and `data` inserted in its place.
    ///
    /// - Parameters:
    ///   - position: A section offset in `0..<numberOfSections`.
    ///   - data: The new section.
    /// - Complexity: O(*s*) for *s* sections.
    public func replaceSection(at position: Int, with data: SectionData<Section, Item>) {
        mutateSections { state in
            let count = state.entries.count
            guard position >= 0 && position < count else {
                Self.sectionOutOfRange("replaceSection(at:with:)", position, count)
            }
            let before = state.itemCounts
            let pair = Changeset.OffsetPair(source: position, target: position)
            if state.entries[position].data.items === data.items {
                state.released.append(state.entries[position].data)
                state.entries[position].data = data
                if state.batch != nil {
                    let origin = state.batch!.sectionOrigins[position]
                    if origin >= 0 { state.batch!.updatedSections.append(origin) }
                    return nil
                }
                return (Changeset(sourceCount: count, targetCount: count, updates: [pair]), before)
            }
            Self.detach(state.entries[position])
            state.released.append(state.entries[position].data)
            let entry = attach(data, at: position, method: "replaceSection(at:with:)", state: &state)
            state.entries[position] = entry
            if state.batch != nil {
                state.batch!.sectionOrigins[position] = -1
                state.batch!.itemOrigins[position] = [Int](repeating: -1, count: entry.items.count)
                return nil
            }
            return (
                Changeset(sourceCount: count, targetCount: count, deletes: [position], inserts: [position]), before
            )
        }
    }
}
