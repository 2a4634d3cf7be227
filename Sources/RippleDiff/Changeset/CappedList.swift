/// How many entries a description or a diagnostic prints of one list before it only counts the rest.
///
/// A `replace(with:)` of a million equal identifiers once printed every repeated offset: one
/// diagnostic line of 16 MB. Twenty entries say where the problem starts; the count says how big it
/// is.
package let _listLimit = 20

/// `values` as `[a, b, c]`, cut after the first ``_listLimit`` entries with a count of the rest:
/// `[0, 1, …, 19, … 999980 more]`.
///
/// - Complexity: O(min(*n*, limit)) for *n* values.
package func _cappedList<Value>(_ values: [Value]) -> String {
    guard values.count > _listLimit else { return "\(values)" }
    let shown = values.prefix(_listLimit).map { "\($0)" }.joined(separator: ", ")
    return "[\(shown), … \(values.count - _listLimit) more]"
}

extension Changeset.Duplicates: CustomStringConvertible {
    /// Where the repeats are, as `old offsets [2, 3] and new offsets [1]`; each list is cut after
    /// its first 20 offsets, with a count of the rest.
    public var description: String {
        "old offsets \(_cappedList(sourceOffsets)) and new offsets \(_cappedList(targetOffsets))"
    }
}

extension SectionedChangeset.ItemDuplicates: CustomStringConvertible {
    /// Where the repeats are, as `old paths [0 - 2] and new paths [1 - 0, 1 - 4]`; each list is cut
    /// after its first 20 paths, with a count of the rest.
    public var description: String {
        "old paths \(_cappedList(sourcePaths)) and new paths \(_cappedList(targetPaths))"
    }
}
