import RippleDiff
import RippleTesting
import XCTest

/// Shorthands shared by the RippleTesting tests. Namespaced so that other test files in this target
/// cannot collide with them.
enum BatchTestKit {
    /// The path of row (item) `item` in `section`, written `(section, item)` as the fact sheet does.
    static func path(_ section: Int, _ item: Int) -> ElementPath {
        ElementPath(item: item, section: section)
    }

    /// UIKit's masked description of an index path.
    static func ns(_ section: Int, _ item: Int) -> String {
        BatchUpdateValidator.indexPathDescription(path(section, item))
    }

    /// A validator of `flavor` with the classic or detailed count message.
    static func validator(
        _ flavor: BatchUpdateValidator.Flavor, detailed: Bool = false
    ) -> BatchUpdateValidator {
        BatchUpdateValidator(flavor: flavor, countMismatchStyle: detailed ? .detailed : .classic)
    }

    /// Asserts that `batch` is rejected with exactly `message` (and `id`, and `rule` if given).
    static func assertRejected(
        _ batch: BatchUpdate,
        before: [Int],
        after: [Int],
        by validator: BatchUpdateValidator,
        id: BatchUpdateMessageID,
        rule: BatchUpdateRule? = nil,
        message: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let result = validator.validate(batch, before: before, after: after)
        guard let violation = result.violation else {
            XCTFail("expected \(id), but \(batch) is valid for \(before) → \(after)", file: file, line: line)
            return
        }
        XCTAssertEqual(violation.messageID, id, "\(violation)", file: file, line: line)
        if let rule { XCTAssertEqual(violation.rule, rule, "\(violation)", file: file, line: line) }
        XCTAssertEqual(violation.message, message, file: file, line: line)
    }

    /// Asserts that `batch` is accepted, and returns the warnings.
    @discardableResult
    static func assertValid(
        _ batch: BatchUpdate,
        before: [Int],
        after: [Int],
        by validator: BatchUpdateValidator,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> [BatchUpdateWarning] {
        let result = validator.validate(batch, before: before, after: after)
        XCTAssertNil(result.violation, "\(batch) for \(before) → \(after)", file: file, line: line)
        return result.warnings
    }

    /// Builds a batch with a closure: `batch { $0.deleteItems(at: [path(0, 1)]) }`.
    static func batch(_ build: (inout BatchUpdate) -> Void) -> BatchUpdate {
        var batch = BatchUpdate()
        build(&batch)
        return batch
    }
}
