/// What ``HeadlessTableView`` and ``HeadlessCollectionView`` are: one engine, two faces.
///
/// The engine (`_HeadlessListEngine`) holds the state and every rule; a face only names its calls in
/// its view's words (rows or items, `UITableView`'s or `UICollectionView`'s) and documents them.
/// What no caller sees by name comes from here, once for both.
protocol _HeadlessListFace: _HeadlessLayoutObservable {
    associatedtype Element
    /// The state machine behind the face.
    var engine: _HeadlessListEngine<Element> { get }
}

extension _HeadlessListFace {
    var engineLayoutObserver: ((_HeadlessLayoutChange) -> Void)? {
        get { engine.layoutObserver }
        set { engine.layoutObserver = newValue }
    }
}

extension HeadlessTableView: _HeadlessListFace {}

extension HeadlessCollectionView: _HeadlessListFace {}
