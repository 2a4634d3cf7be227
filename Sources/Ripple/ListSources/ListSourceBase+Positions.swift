import RippleDiff

// Cell presenters that know where their row is (SourceModel's `Indexable`): the source sets their
// `path` when their cell is configured and after every rendered event that moves or shifts their
// row, so that a presenter reads its current path when it needs it, not the one of its last
// `willDisplay`.

/// A cell presenter that knows where its row is (SourceModel's `Indexable`).
///
/// The list source sets ``path`` each time the row's cell is configured, and after each rendered
/// change that moves the row, shifts it (rows inserted or removed before it), or puts the
/// presenter in a kept row (a refresh with fresh presenters, `collection[i] = fresh`,
/// `sections[path] = fresh`); it sets `nil` when the row is removed or another presenter takes
/// it. Reading it never asks the view.
///
/// ```swift
/// import Ripple
///
/// final class TrackCellPresenter: IndexedCellPresenter {
///     var path: ElementPath?
///     var number: String { path.map { "\($0.item + 1)." } ?? "" }
/// }
/// ```
@MainActor
public protocol IndexedCellPresenter: AnyObject {
    /// Where the presenter's row is in the rendered list, or `nil` when it has none. The list
    /// source that shows the row sets it.
    var path: ElementPath? { get set }
}

extension ListSourceBase {
    /// Tells the presenter of `item`, when it adopts ``IndexedCellPresenter``, that its row is at
    /// `path` (or has none), when that is news to it.
    func place(_ item: Item, at path: ElementPath?) {
        guard let presenter = item as? any IndexedCellPresenter, presenter.path != path else { return }
        presenter.path = path
    }

    /// Places the presenters of a rendered flat event: `nil` for the removed rows and for the
    /// presenters an update replaced, then every row from the first one the change touched to the
    /// last one whose path it changed, and the rows an update gave a fresh presenter. A reload, the
    /// first event or a `replace` places every row.
    ///
    /// - Complexity: O(*r*) in the rows from the first change to the last one whose path changed,
    ///   or O(*n*) for *n* rows after a reload, the first event or a `replace`; nothing for a list
    ///   of values.
    func placePresenters(
        after changeset: Changeset, animated: Bool, placesEveryRow: Bool,
        before: ListSnapshot<Item>, after: ListSnapshot<Item>
    ) {
        guard Self.itemsMayBeObjects else { return }
        guard animated, !placesEveryRow else {
            return placeEveryRow(
                after.enumerated().lazy.map { (ElementPath(item: $0.offset, section: 0), $0.element) }, leaving: before)
        }
        for offset in changeset.deletes + changeset.moves.map(\.source) { place(before[offset], at: nil) }
        // An update may put another object in a kept row (`collection[i] = fresh`): the replaced
        // presenter leaves the list, and the fresh one takes the row.
        let replaced = changeset.updates.filter { !Self.isSameObject(before[$0.source], after[$0.target]) }
        for update in replaced { place(before[update.source], at: nil) }
        let touched =
            changeset.deletes + changeset.inserts + changeset.moves.flatMap { [$0.source, $0.target] }
        if let first = touched.min(), let last = touched.max() {
            let end = changeset.sourceCount == changeset.targetCount ? min(last + 1, after.count) : after.count
            for offset in first..<max(first, end) { place(after[offset], at: ElementPath(item: offset, section: 0)) }
        }
        for update in replaced { place(after[update.target], at: ElementPath(item: update.target, section: 0)) }
    }

    /// Whether `old` and `new` are the same object (two values are never the same presenter).
    private static func isSameObject(_ old: Item, _ new: Item) -> Bool {
        guard let new = _object(new) else { return false }
        return _object(old) === new
    }

    /// Places the presenters of a rendered sectioned event: `nil` for the removed rows (and the
    /// rows of removed sections) and for the presenters an update replaced, then every row of the
    /// sections from the first one the change touched, and the rows an update gave a fresh
    /// presenter. A reload, the first event or a `replace` places every row.
    ///
    /// - Complexity: O(*r*) in the rows of the sections from the first touched one, or O(*n*) for
    ///   *n* rows after a reload, the first event or a `replace`; nothing for a list of values.
    func placePresenters<Section>(
        after changeset: SectionedChangeset, animated: Bool, placesEveryRow: Bool,
        before: [SectionSnapshot<Section, Item>], after: [SectionSnapshot<Section, Item>]
    ) {
        guard Self.itemsMayBeObjects else { return }
        guard animated, !placesEveryRow else {
            return placeEveryRow(Self.rows(of: after, from: 0), leaving: before.lazy.flatMap(\.items))
        }
        let sections = changeset.sections
        for path in changeset.itemDeletes + changeset.itemMoves.map(\.source) {
            place(before[path.section].items[path.item], at: nil)
        }
        for section in sections.deletes + sections.moves.map(\.source) {
            for item in before[section].items { place(item, at: nil) }
        }
        let replaced = changeset.itemUpdates.filter { update in
            !Self.isSameObject(
                before[update.source.section].items[update.source.item],
                after[update.target.section].items[update.target.item])
        }
        for update in replaced { place(before[update.source.section].items[update.source.item], at: nil) }
        let touched =
            sections.deletes + sections.inserts + sections.moves.flatMap { [$0.source, $0.target] }
            + (changeset.itemDeletes + changeset.itemInserts).map(\.section)
            + changeset.itemMoves.flatMap { [$0.source.section, $0.target.section] }
        if let first = touched.min() {
            for (path, item) in Self.rows(of: after, from: first) { place(item, at: path) }
        }
        for update in replaced { place(after[update.target.section].items[update.target.item], at: update.target) }
    }

    /// The rows of the sections from `first` on, each with its path.
    private static func rows<Section>(
        of sections: [SectionSnapshot<Section, Item>], from first: Int
    ) -> some Sequence<(ElementPath, Item)> {
        sections[min(first, sections.count)...].enumerated().lazy.flatMap { offset, section in
            section.items.enumerated().lazy.map { (ElementPath(item: $0.offset, section: first + offset), $0.element) }
        }
    }

    /// Places every row of `rows`, then tells the presenters of `before` that are in none of them
    /// that they have no row: one cast per item on each side.
    ///
    /// - Complexity: O(*n* + *m*) for *n* rows and *m* items before, when the items may be
    ///   presenters.
    private func placeEveryRow(_ rows: some Sequence<(ElementPath, Item)>, leaving before: some Sequence<Item>) {
        var kept: Set<ObjectIdentifier> = []
        for (path, item) in rows {
            guard let presenter = item as? any IndexedCellPresenter else { continue }
            kept.insert(ObjectIdentifier(presenter))
            if presenter.path != path { presenter.path = path }
        }
        for item in before {
            guard let presenter = item as? any IndexedCellPresenter, !kept.contains(ObjectIdentifier(presenter))
            else { continue }
            presenter.path = nil
        }
    }
}
