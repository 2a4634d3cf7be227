import Ripple

/// A headless collection view is a ``ListView``, so Ripple's list sources drive it exactly as
/// they drive a `UICollectionView`: every batch they make is validated against UIKit's rules.
extension HeadlessCollectionView: ListView {
    /// Records that `source` adopted the view (``adoptedSource``, ``adoptionCount``); the view
    /// keeps reading its sections from its own data source.
    ///
    /// - Parameter source: The list source that drives the view.
    /// - Returns: `nil`: there is no adapter to keep alive.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject? {
        engine.adopt(source)
        return nil
    }
}
