import RippleDiff

// MARK: - Rebinding kept rows (uikit-cell-lifecycle.md, C7)

/// How a list source shows a row whose element changed content but kept its identity (a
/// change-set's update).
public enum ListUpdateStyle: Sendable, Hashable {
    /// Configures the row's cell again in place, after the event's batches
    /// (`reconfigureRows(at:)`/`reconfigureItems(at:)` on iOS 15 and later, the visible cell
    /// configured directly before): no cross-fade, and the cell keeps its state (selection, focus,
    /// a running image load). A row whose new element needs another cell type is reloaded instead.
    case reconfigure

    /// Reloads the row inside the event's batch (`reloadRows(at:)`/`reloadItems(at:)`): the row
    /// gets a cell from the reuse pool, with a cross-fade, and the old cell's state is lost.
    case reload
}

extension ListSourceBase {
    /// Rebinds the cells of the rows an animated event left showing an old element (C7), once the
    /// event's batches have run: a kept row whose element is now another object (a refresh that
    /// diffed fresh presenters by identifier), and, with ``ListUpdateStyle/reconfigure``, an
    /// updated row. Each is reconfigured when the new element takes the same cell type, and
    /// reloaded in a batch of its own when it needs another; rows off screen cost the view nothing.
    ///
    /// - Parameters:
    ///   - updates: The event's updated rows, from their path before to their path after.
    ///   - origins: For each row after the event, the path it had before, or `nil` for a row the
    ///     event inserted, or whose section it inserted or reloaded; no row at all when the event
    ///     cannot have kept a row with another instance.
    ///   - before: The element at a path before the event.
    ///   - after: The element at a path after the event.
    /// - Complexity: O(*k*) for *k* updated rows when the elements are values, or when `origins`
    ///   is empty; otherwise O(*n*) for *n* rows, whose objects must be compared one by one.
    func rebindCells(
        updates: [(source: ElementPath, target: ElementPath)], origins: () -> [[ElementPath?]],
        before: (ElementPath) -> Item, after: (ElementPath) -> Item
    ) {
        var reconfigure: [ElementPath] = []
        var reload: [ElementPath] = []
        func rebind(_ old: Item, _ new: Item, at path: ElementPath) {
            if registeredCellIdentifier(of: old) == registeredCellIdentifier(of: new) {
                reconfigure.append(path)
            } else {
                reload.append(path)
            }
        }
        var updated: Set<ElementPath> = []
        if updateStyle == .reconfigure {
            for update in updates {
                updated.insert(update.target)
                rebind(before(update.source), after(update.target), at: update.target)
            }
        }
        if Self.itemsMayBeObjects {
            for (section, items) in origins().enumerated() {
                for (item, origin) in items.enumerated() {
                    guard let origin else { continue }
                    let path = ElementPath(item: item, section: section)
                    guard !updated.contains(path) else { continue }
                    let old = before(origin)
                    let new = after(path)
                    guard let object = _object(new), _object(old) !== object else { continue }
                    rebind(old, new, at: path)
                }
            }
        }
        renderer.rebind(reconfigure: reconfigure.sorted(), reload: reload.sorted())
    }

    /// Whether elements of type `Item` may be objects: a class, an existential (`any P`, `Any`,
    /// `AnyObject`) that a class instance may stand behind, or an `Optional` of either. A struct
    /// or an enum never is, so a list of values pays nothing for the object comparison.
    static var itemsMayBeObjects: Bool { _mayBeObject(Item.self) }
}

/// Whether values of `type` may be objects: a class, an existential that a class instance may
/// stand behind, or an `Optional` of either.
func _mayBeObject(_ type: Any.Type) -> Bool {
    type is AnyClass || _isExistentialType(type) || type is any _OptionalRow.Type
}

/// `Optional`, seen through a protocol, so that a row of type `Class?` is unwrapped to its object.
protocol _OptionalRow {
    /// The wrapped value, or `nil`.
    var _wrappedRow: Any? { get }
}

extension Optional: _OptionalRow {
    var _wrappedRow: Any? { self.map { $0 } }
}

/// The object that `value` is, or that it wraps in an `Optional` (at any depth), or `nil` for a
/// value or an empty `Optional`.
func _object(_ value: Any) -> AnyObject? {
    if let optional = value as? any _OptionalRow { return optional._wrappedRow.flatMap(_object) }
    return Swift.type(of: value) is AnyClass ? value as AnyObject : nil
}

/// Whether `type` is an existential type (`any P`, `any P<T>`, `P & Q`, `Any`, `AnyObject`).
///
/// Reads the kind word of the type's metadata, which the Swift ABI fixes (stable since Swift 5 on
/// Apple platforms, and the same layout on Linux): `0x303` for an existential, `0x307` for an
/// extended existential such as `any P<T>`. The language has no query for it; this is a read of one
/// word of immutable runtime metadata, which every metatype points to.
func _isExistentialType(_ type: Any.Type) -> Bool {
    let kind = unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
    return kind == 0x303 || kind == 0x307
}
