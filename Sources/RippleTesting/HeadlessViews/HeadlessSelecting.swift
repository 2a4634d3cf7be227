import RippleDiff

/// A headless view that keeps a selection: what ``HeadlessCellHost`` needs to play the user's taps.
protocol _HeadlessSelecting: AnyObject {
    var allowsMultipleSelection: Bool { get }
    var selectedPaths: [ElementPath] { get }
    func _select(_ path: ElementPath)
    func _deselect(_ path: ElementPath)
}

extension HeadlessTableView: _HeadlessSelecting {
    func _select(_ path: ElementPath) { selectRow(at: path) }
    func _deselect(_ path: ElementPath) { deselectRow(at: path) }
}

extension HeadlessCollectionView: _HeadlessSelecting {
    func _select(_ path: ElementPath) { selectItem(at: path) }
    func _deselect(_ path: ElementPath) { deselectItem(at: path) }
}
