import XCTest

/// Describes the first place where `actual` and `expected` differ, or returns `nil` when they are
/// equal element by element and have the same length.
///
/// - Parameters:
///   - actual: The sequence a test produced.
///   - expected: The sequence it should equal.
///   - areEqual: Whether two elements are equal.
/// - Returns: For example `"at offset 2: got 5:0, expected 7:0"` or
///   `"actual has 3 elements, expected has 4; at offset 3 expected 9:1"`.
/// - Complexity: O(*n*) for the shorter length *n*.
public func firstMismatch<Actual: Sequence, Expected: Sequence>(
    _ actual: Actual,
    _ expected: Expected,
    by areEqual: (Actual.Element, Actual.Element) -> Bool
) -> String? where Actual.Element == Expected.Element {
    var actualIterator = actual.makeIterator()
    var expectedIterator = expected.makeIterator()
    var offset = 0
    while true {
        switch (actualIterator.next(), expectedIterator.next()) {
        case (nil, nil):
            return nil
        case (let got?, let wanted?):
            if !areEqual(got, wanted) { return "at offset \(offset): got \(got), expected \(wanted)" }
        case (let got?, nil):
            let extra = 1 + countRemaining(&actualIterator)
            return "actual has \(offset + extra) elements, expected has \(offset); at offset \(offset) got \(got)"
        case (nil, let wanted?):
            let missing = 1 + countRemaining(&expectedIterator)
            return
                "actual has \(offset) elements, expected has \(offset + missing); at offset \(offset) expected \(wanted)"
        }
        offset += 1
    }
}

/// Describes the first place where two arrays differ; the same as the `Sequence` form, faster.
///
/// - Parameters:
///   - actual: The array a test produced.
///   - expected: The array it should equal.
///   - areEqual: Whether two elements are equal.
/// - Returns: A description of the first difference, or `nil` when the arrays are equal.
/// - Complexity: O(*n*) for the shorter length *n*.
public func firstMismatch<Element>(
    _ actual: [Element],
    _ expected: [Element],
    by areEqual: (Element, Element) -> Bool
) -> String? {
    let common = Swift.min(actual.count, expected.count)
    var offset = 0
    while offset < common {
        if !areEqual(actual[offset], expected[offset]) {
            return "at offset \(offset): got \(actual[offset]), expected \(expected[offset])"
        }
        offset += 1
    }
    if actual.count > common {
        return "actual has \(actual.count) elements, expected has \(common); at offset \(common) got \(actual[common])"
    }
    if expected.count > common {
        return
            "actual has \(common) elements, expected has \(expected.count); at offset \(common) expected \(expected[common])"
    }
    return nil
}

/// Describes the first place where `actual` and `expected` differ; see
/// ``firstMismatch(_:_:by:)``.
///
/// - Parameters:
///   - actual: The sequence a test produced.
///   - expected: The sequence it should equal.
/// - Returns: A description of the first difference, or `nil` when the sequences are equal.
/// - Complexity: O(*n*) for the shorter length *n*.
public func firstMismatch<Actual: Sequence, Expected: Sequence>(
    _ actual: Actual,
    _ expected: Expected
) -> String? where Actual.Element == Expected.Element, Actual.Element: Equatable {
    firstMismatch(actual, expected, by: ==)
}

/// Asserts that two sequences are equal element by element, and names the first difference
/// instead of printing both sequences whole.
///
/// ```swift
/// assertEqualSequences(changes.applied(to: old) { new[$0] }, new)
/// ```
///
/// - Parameters:
///   - actual: The sequence a test produced.
///   - expected: The sequence it should equal.
///   - message: Context to add to the failure.
///   - file: The file to report the failure in.
///   - line: The line to report the failure at.
/// - Complexity: O(*n*) for the shorter length *n*.
public func assertEqualSequences<Actual: Sequence, Expected: Sequence>(
    _ actual: Actual,
    _ expected: Expected,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) where Actual.Element == Expected.Element, Actual.Element: Equatable {
    if let mismatch = firstMismatch(actual, expected) {
        let context = message()
        XCTFail(context.isEmpty ? mismatch : "\(context): \(mismatch)", file: file, line: line)
    }
}

private func countRemaining<Iterator: IteratorProtocol>(_ iterator: inout Iterator) -> Int {
    var count = 0
    while iterator.next() != nil { count += 1 }
    return count
}
