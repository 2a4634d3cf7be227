import Ripple

/// A headless collection view is a ``ListView``, so Ripple's list sources drive it exactly as
/// they drive a `UICollectionView`: every batch they make is validated against UIKit's rules.
extension HeadlessCollectionView: ListView {}
