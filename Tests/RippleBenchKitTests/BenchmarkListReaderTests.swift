import Foundation
import XCTest

@testable import RippleBenchKit

/// The lists of `ripple-bench --lists`: good files parse into rows, and every bad file gives a
/// message naming the file, the position and what was expected.
final class BenchmarkListReaderTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "ripple-bench-lists-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Writes `text` to `name` in the test's folder and returns its path.
    @discardableResult
    private func file(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The message of the error that reading `text` as `name` throws.
    private func message(_ name: String, _ text: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let path = try self.file(name, text)
        do {
            let list = try BenchmarkListReader.read(path: path)
            XCTFail("expected an error, read \(list)", file: file, line: line)
            return ""
        } catch {
            XCTAssertEqual(error.file, path, file: file, line: line)
            return error.description.replacingOccurrences(of: folder + "/", with: "")
        }
    }

    // MARK: - Good files

    func testStringIdentifiersWithAnyContent() throws {
        let path = try file(
            "a.json",
            """
            [
              ["p_1", {"likes": 3, "title": "Hello"}],
              ["p_2", "text"],
              ["p_3", 12.5],
              ["p_1", null],
              ["p_4", [1, true, false]]
            ]
            """)
        let list = try BenchmarkListReader.read(path: path)
        XCTAssertEqual(
            list,
            .string([
                ListRow(id: "p_1", content: #"{"likes":3,"title":"Hello"}"#),
                ListRow(id: "p_2", content: #""text""#),
                ListRow(id: "p_3", content: "12.5"),
                ListRow(id: "p_1", content: "null"),
                ListRow(id: "p_4", content: "[1,true,false]"),
            ]))
    }

    func testWholeNumberIdentifiersAndObjectRows() throws {
        let path = try file(
            "b.json",
            #"[{"id": 9007199254740993, "content": "a"}, [-4, "b"], {"content": {"x": "\u00e9\n"}, "id": 0}]"#)
        XCTAssertEqual(
            try BenchmarkListReader.read(path: path),
            .int([
                ListRow(id: 9_007_199_254_740_993, content: #""a""#),
                ListRow(id: -4, content: #""b""#),
                ListRow(id: 0, content: #"{"x":"é\n"}"#),
            ]))
    }

    func testContentIsComparedAsAJSONValue() throws {
        let old = try file("ws-old.json", #"[[1, {"a": [1, 2], "b": 1.0}], [2, "x"], [3, 1.5]]"#)
        let new = try file("ws-new.json", "[\n  [1, {\"b\":1e0,\"a\":[1,2]}],\n\t[2, \"x \"],\n  [3, 1.50]\n]\n")
        let pair = try BenchmarkListReader.readPair(old: old, new: new)
        XCTAssertEqual(pair.name, "ws")
        guard case .int(let before) = pair.old, case .int(let after) = pair.new else {
            return XCTFail("expected int lists")
        }
        XCTAssertEqual(
            before[0], after[0],
            "whitespace outside strings, the order of members and how a number is written do not count")
        XCTAssertEqual(before[0].content, #"{"a":[1,2],"b":1}"#)
        XCTAssertNotEqual(before[1], after[1], "whitespace inside a string does")
        XCTAssertEqual(before[2], after[2])
    }

    func testEmptyListTakesTheOtherKind() throws {
        let old = try file("empty-old.json", " [ ] ")
        let new = try file("empty-new.json", #"[["a", 1]]"#)
        let pair = try BenchmarkListReader.readPair(old: old, new: new)
        XCTAssertEqual(pair.old, .string([]))
        XCTAssertEqual(pair.new.kindName, "string")
        let reversed = try BenchmarkListReader.readPair(old: new, new: old)
        XCTAssertEqual(reversed.new, .string([]))
        XCTAssertEqual(ListsBenchmarks.group(reversed).tasks.map(\.engine), ["ripple", "floor", "stdlib"])
    }

    func testFolderOfPairs() throws {
        try file("feed-old.json", #"[["a", 1], ["b", 2]]"#)
        try file("feed-new.json", #"[["b", 2], ["a", 1]]"#)
        try file("ranks-old.json", "[[1, 1]]")
        try file("ranks-new.json", "[[2, 1]]")
        try file("notes.txt", "ignored")
        let pairs = try BenchmarkListReader.readFolder(folder)
        XCTAssertEqual(pairs.map(\.name), ["feed", "ranks"])
        XCTAssertEqual(pairs.map(\.new.kindName), ["string", "int"])
    }

    func testAPairIsMeasuredLikeAScenario() throws {
        let old = try file("small-old.json", #"[[1, "a"], [2, "b"], [3, "c"]]"#)
        let new = try file("small-new.json", #"[[3, "c"], [1, "A"], [4, "d"], [4, "d"]]"#)
        let group = ListsBenchmarks.group(try BenchmarkListReader.readPair(old: old, new: new))
        XCTAssertEqual(group.tasks.map(\.engine), ["ripple", "floor", "stdlib"])
        XCTAssertEqual(group.tasks.map(\.scenario), ["small", "small", "small"])
        XCTAssertEqual(group.tasks.map(\.element), ["int", "int", "int"])
        XCTAssertEqual(group.tasks.map { $0.elements ?? 0 }, [7, 7, 7])
        XCTAssertEqual(group.tasks[0].body(), 1, "one move: 3 before 1")
        let note = try XCTUnwrap(group.notes.first)
        XCTAssertTrue(note.hasPrefix("`small` int: 3 → 4 rows; 2 inserted, 1 deleted, 1 moved, 1 updated; "), note)
        XCTAssertTrue(note.contains("rows with a repeated identifier"), note)
    }

    func testPairNames() {
        XCTAssertEqual(BenchmarkListReader.pairName("x/feed-old.json"), "feed")
        XCTAssertEqual(BenchmarkListReader.pairName("feed.old.json"), "feed")
        XCTAssertEqual(BenchmarkListReader.pairName("feed_old.json"), "feed")
        XCTAssertEqual(BenchmarkListReader.pairName("/tmp/monday.json"), "monday")
    }

    func testTheCommittedExamplesRead() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks/Examples").path
        let pair = try BenchmarkListReader.readPair(old: examples + "/feed-old.json", new: examples + "/feed-new.json")
        XCTAssertEqual(pair.name, "feed")
        XCTAssertEqual(pair.old.count, 30_000)
        XCTAssertEqual(pair.new.count, 30_000 - 300 + 600 + 3)
        XCTAssertEqual(pair.old.kindName, "string")
    }

    // MARK: - Bad files, each with its message

    func testNotAnArray() throws {
        XCTAssertEqual(
            try message("object.json", #"{"rows": []}"#),
            "object.json:1:1: expected a JSON array of rows, [[identifier, content], …], found an object")
        XCTAssertEqual(
            try message("string.json", "\n  \"rows\""),
            "string.json:2:3: expected a JSON array of rows, [[identifier, content], …], found the string \"rows\"")
    }

    func testMixedIdentifierKinds() throws {
        XCTAssertEqual(
            try message("mixed.json", "[\n  [\"a\", 1],\n  [\"b\", 2],\n  [3, 3]\n]"),
            "mixed.json: row 3: the identifier is a number, but row 1's is a string; "
                + "every identifier of a list must be of one kind (all strings or all whole numbers)")
        XCTAssertEqual(
            try message("mixed2.json", #"[[1, 1], {"id": "x", "content": 2}]"#),
            "mixed2.json: row 2: the identifier is a string, but row 1's is a number; "
                + "every identifier of a list must be of one kind (all strings or all whole numbers)")
    }

    func testMixedKindsAcrossTheTwoFiles() throws {
        let old = try file("k-old.json", #"[["a", 1]]"#)
        let new = try file("k-new.json", "[[1, 1]]")
        XCTAssertThrowsError(try BenchmarkListReader.readPair(old: old, new: new)) { error in
            XCTAssertEqual(
                "\(error)".replacingOccurrences(of: folder + "/", with: ""),
                "k-new.json: its identifiers are whole numbers but those of k-old.json are strings; both lists must use one kind"
            )
        }
    }

    func testMissingFields() throws {
        XCTAssertEqual(
            try message("short.json", "[[1, \"a\"],\n [2]]"),
            "short.json: row 2: expected [identifier, content], found an array of 1 element (the content is missing)"
        )
        XCTAssertEqual(
            try message("empty-row.json", "[[]]"),
            "empty-row.json: row 1: expected [identifier, content], found an array of 0 elements (the identifier and the content are missing)"
        )
        XCTAssertEqual(
            try message("long.json", "[[1, 2, 3]]"),
            "long.json: row 1: expected [identifier, content], found an array of 3 elements (it has more than two)")
        XCTAssertEqual(
            try message("no-content.json", #"[{"id": 1}]"#),
            #"no-content.json: row 1: missing field "content" in {"id": identifier, "content": content}"#)
        XCTAssertEqual(
            try message("no-id.json", #"[{"content": 1}]"#),
            #"no-id.json: row 1: missing field "id" in {"id": identifier, "content": content}"#)
        XCTAssertEqual(
            try message("extra.json", #"[{"id": 1, "content": 1, "title": "x"}]"#),
            #"extra.json: row 1: unexpected field "title"; a row object has only "id" and "content""#)
    }

    func testBadIdentifiersAndRows() throws {
        XCTAssertEqual(
            try message("float.json", "[[1.5, 1]]"),
            "float.json: row 1: expected an identifier that is a string or a whole number in the range of Int, found the number 1.5"
        )
        XCTAssertEqual(
            try message("huge.json", "[[123456789012345678901234567890, 1]]"),
            "huge.json: row 1: expected an identifier that is a string or a whole number in the range of Int, "
                + "found the number 123456789012345678901234567890")
        XCTAssertEqual(
            try message("bool.json", "[[true, 1]]"),
            "bool.json: row 1: expected an identifier that is a string or a whole number, found true")
        XCTAssertEqual(
            try message("scalar-row.json", "[[1, 1], 7]"),
            #"scalar-row.json: row 2: expected [identifier, content] or {"id": …, "content": …}, found the number 7"#
        )
    }

    /// Text that is not JSON: `JSONDecoder` does not say where, so `JSONSerialization` locates it;
    /// its reasons are worded as what was expected.
    func testSyntaxErrors() throws {
        XCTAssertEqual(try message("blank.json", "  \n"), "blank.json:2:1: the file is empty; expected a JSON value")
        XCTAssertEqual(
            try message("comma.json", "[\n  [1, 2]\n  [2, 3]\n]"),
            "comma.json:3:3: not valid JSON: expected a value, ',', ':', ']', '}' or the end of the file, found '['")
        XCTAssertEqual(
            try message("cut.json", #"[["a", 1], ["b""#),
            "cut.json:1:16: not valid JSON: expected the rest of the value (a closing ']', '}' or '\"', "
                + "or the rest of true, false or null), found the end of the file")
        XCTAssertEqual(
            try message("string.json", "[[\"é\u{1}\", 1]]"),
            "string.json:1:5: not valid JSON: a control character (byte 0x1) must be escaped inside a string")
        XCTAssertEqual(
            try message("trailing.json", "[] x"),
            "trailing.json:1:4: not valid JSON: expected a value, ',', ':', ']', '}' or the end of the file, found 'x'")
        XCTAssertEqual(
            try message("deep.json", String(repeating: "[", count: 600)),
            "deep.json:1:514: not valid JSON: arrays and objects nested too deeply")
        XCTAssertEqual(
            try message("literal.json", "[True]"),
            "literal.json:1:2: not valid JSON: expected a value, ',', ':', ']', '}' or the end of the file, found 'T'")
        XCTAssertEqual(
            try message("zero.json", "[[1, 012]]"),
            "zero.json:1:7: not valid JSON: a number cannot have a leading zero")
    }

    func testMissingFileAndFolder() throws {
        XCTAssertThrowsError(try BenchmarkListReader.read(path: folder + "/none.json")) { error in
            XCTAssertEqual("\(error)", folder + "/none.json: no such file")
        }
        XCTAssertThrowsError(try BenchmarkListReader.read(path: folder)) { error in
            XCTAssertEqual("\(error)", folder + ": is a folder, not a file")
        }
        try file("lonely-old.json", "[]")
        XCTAssertThrowsError(try BenchmarkListReader.readFolder(folder)) { error in
            XCTAssertEqual("\(error)", folder + "/lonely-old.json: has no matching lonely-new.json")
        }
    }
}
