/// The position of an item in a sectioned list: a section offset and an item offset inside it.
///
/// `ElementPath` is RippleDiff's own path type, so the diff engine needs neither Foundation nor
/// UIKit. The UIKit glue converts it to `IndexPath` at the boundary.
///
///     let path = ElementPath(item: 3, section: 1)
///     print(path) // "1 - 3", the way UIKit prints an index path
public struct ElementPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The offset of the item inside its section.
    public var item: Int

    /// The offset of the section.
    public var section: Int

    /// Creates a path to an item.
    ///
    /// - Parameters:
    ///   - item: The offset of the item inside its section.
    ///   - section: The offset of the section.
    @inlinable
    public init(item: Int, section: Int) {
        self.item = item
        self.section = section
    }

    /// Orders paths by section first, then by item, as UIKit sorts index paths.
    @inlinable
    public static func < (lhs: ElementPath, rhs: ElementPath) -> Bool {
        lhs.section != rhs.section ? lhs.section < rhs.section : lhs.item < rhs.item
    }

    /// The path as UIKit prints an index path's components: `"section - item"`.
    public var description: String { "\(section) - \(item)" }
}
