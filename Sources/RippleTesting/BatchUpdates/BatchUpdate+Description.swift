import RippleDiff

extension BatchUpdate: CustomStringConvertible {
    /// The operations in call order, such as `BatchUpdate[delete item (0 - 1), insert section 2]`.
    public var description: String {
        "BatchUpdate[" + operations.map(\.description).joined(separator: ", ") + "]"
    }
}

extension BatchUpdate.Operation: CustomStringConvertible {
    /// The operation with paths printed as UIKit prints index paths, such as
    /// `move item (0 - 1) to (1 - 0)`.
    public var description: String {
        switch self {
        case .deleteSection(let section): return "delete section \(section)"
        case .insertSection(let section): return "insert section \(section)"
        case .moveSection(let from, let to): return "move section \(from) to \(to)"
        case .reloadSection(let section): return "reload section \(section)"
        case .deleteItem(let path): return "delete item (\(path))"
        case .insertItem(let path): return "insert item (\(path))"
        case .moveItem(let from, let to): return "move item (\(from)) to (\(to))"
        case .reloadItem(let path): return "reload item (\(path))"
        }
    }
}
