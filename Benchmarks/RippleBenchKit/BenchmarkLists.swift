import Foundation

/// One row of a user's list (`--lists`): an identifier and the content compared for updates.
struct ListRow<ID: Hashable & Sendable>: Identifiable, Equatable, Sendable {
    var id: ID
    /// The row's content as compact JSON text written one way (``CompactJSON``): two rows are
    /// equal when their content is the same JSON value.
    var content: String
}

/// A list read from a file: its rows, with whole-number or string identifiers.
enum BenchmarkList: Equatable, Sendable {
    case int([ListRow<Int>])
    case string([ListRow<String>])

    var count: Int {
        switch self {
        case .int(let rows): return rows.count
        case .string(let rows): return rows.count
        }
    }

    /// `int` or `string`: the element kind in the report.
    var kindName: String {
        switch self {
        case .int: return "int"
        case .string: return "string"
        }
    }
}

/// A pair of lists to diff, named after its files.
struct BenchmarkListPair: Sendable {
    var name: String
    var oldPath: String
    var newPath: String
    var old: BenchmarkList
    var new: BenchmarkList
}

/// What is wrong with an input file (a list of `--lists`, a baseline of `--compare`): the file,
/// where (the line and column where its text is not JSON, or in the message the row or result of
/// the wrong shape), and what was expected there. Its description reads like a compiler's:
/// `feed-old.json:3:5: not valid JSON: …`, `feed-old.json: row 2: …`.
struct BenchmarkFileError: Error, Equatable, CustomStringConvertible {
    /// A 1-based line and column (columns count Unicode scalars).
    struct Position: Equatable {
        var line: Int
        var column: Int
    }

    var file: String
    var position: Position?
    var message: String

    var description: String {
        guard let position else { return "\(file): \(message)" }
        return "\(file):\(position.line):\(position.column): \(message)"
    }
}

/// Reads the lists of `--lists`.
///
/// The format: a JSON array with one entry per row, in order. A row is either a two-element array
/// `[identifier, content]` or an object `{"id": identifier, "content": content}`. The identifier
/// is a string or a whole number (in the range of `Int`), the same kind in every row of both
/// files. The content is any JSON value; two rows have the same content when it is the same JSON
/// value (see ``CompactJSON``): whitespace, the order of an object's members and the way a number
/// is written do not count (`1` and `1.0` are the same). Identifiers may repeat.
enum BenchmarkListReader {
    /// Reads the pair `old` → `new`, named `name` (by default after the old file).
    static func readPair(old: String, new: String, name: String? = nil) throws(BenchmarkFileError) -> BenchmarkListPair
    {
        let oldList = try read(path: old)
        let newList = try read(path: new)
        if oldList.kindName != newList.kindName, oldList.count > 0, newList.count > 0 {
            throw BenchmarkFileError(
                file: new, position: nil,
                message: "its identifiers are \(describe(newList)) but those of \(old) are \(describe(oldList)); "
                    + "both lists must use one kind")
        }
        return BenchmarkListPair(
            name: name ?? pairName(old), oldPath: old, newPath: new, old: align(oldList, to: newList),
            new: align(newList, to: oldList))
    }

    /// The pairs of a folder: each `NAME-old.json` with its `NAME-new.json`, in name order.
    static func readFolder(_ path: String) throws(BenchmarkFileError) -> [BenchmarkListPair] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw BenchmarkFileError(file: path, position: nil, message: "cannot list the folder")
        }
        let olds = names.filter { $0.hasSuffix("-old.json") }
        let news = names.filter { $0.hasSuffix("-new.json") }
        guard !olds.isEmpty else {
            throw BenchmarkFileError(
                file: path, position: nil,
                message: "no NAME-old.json file in the folder; expected pairs NAME-old.json and NAME-new.json")
        }
        for new in news where !olds.contains(String(new.dropLast("-new.json".count)) + "-old.json") {
            throw BenchmarkFileError(
                file: join(path, new), position: nil,
                message: "has no matching \(new.dropLast("-new.json".count))-old.json")
        }
        var pairs: [BenchmarkListPair] = []
        for old in olds {
            let stem = String(old.dropLast("-old.json".count))
            guard news.contains(stem + "-new.json") else {
                throw BenchmarkFileError(
                    file: join(path, old), position: nil, message: "has no matching \(stem)-new.json")
            }
            pairs.append(try readPair(old: join(path, old), new: join(path, stem + "-new.json"), name: stem))
        }
        return pairs
    }

    /// Reads one file.
    static func read(path: String) throws(BenchmarkFileError) -> BenchmarkList {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw BenchmarkFileError(file: path, position: nil, message: "no such file")
        }
        guard !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw BenchmarkFileError(
                file: path, position: nil,
                message: isFolder.boolValue ? "is a folder, not a file" : "cannot read the file")
        }
        return try parse(data, file: path)
    }

    /// Parses the text of one file, named `file` in errors.
    static func parse(_ data: Data, file: String) throws(BenchmarkFileError) -> BenchmarkList {
        let rows = try JSONInput.decode(ListFile.self, from: data, file: file).rows
        var ints: [ListRow<Int>] = []
        var strings: [ListRow<String>] = []
        var first: (kind: String, row: Int)?
        for (index, row) in rows.enumerated() {
            let kind: String
            switch row.id {
            case .int(let id):
                kind = "number"
                ints.append(ListRow(id: id, content: row.content))
            case .string(let id):
                kind = "string"
                strings.append(ListRow(id: id, content: row.content))
            }
            guard let first else {
                first = (kind, index + 1)
                continue
            }
            if kind != first.kind {
                throw BenchmarkFileError(
                    file: file, position: nil,
                    message:
                        "row \(index + 1): the identifier is a \(kind), but row \(first.row)'s is a \(first.kind); "
                        + "every identifier of a list must be of one kind (all strings or all whole numbers)")
            }
        }
        return first?.kind == "string" ? .string(strings) : .int(ints)
    }

    private static func describe(_ list: BenchmarkList) -> String {
        list.kindName == "int" ? "whole numbers" : "strings"
    }

    /// An empty list takes the kind of the other.
    private static func align(_ list: BenchmarkList, to other: BenchmarkList) -> BenchmarkList {
        guard list.count == 0 else { return list }
        switch other {
        case .int: return .int([])
        case .string: return .string([])
        }
    }

    /// `feed` for `path/feed-old.json`, `feed.old.json`, `feed_old.json` or `feed.json`.
    static func pairName(_ path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".json") { name.removeLast(5) }
        for suffix in ["-old", ".old", "_old"] where name.hasSuffix(suffix) && name.count > suffix.count {
            name.removeLast(suffix.count)
            break
        }
        return name
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

/// A file of `--lists` as `JSONDecoder` reads it: an array of rows.
private struct ListFile: Decodable {
    var rows: [ListFileRow] = []

    init(from decoder: any Decoder) throws {
        guard var items = try? decoder.unkeyedContainer() else {
            throw JSONInputProblem(
                message: "expected a JSON array of rows, [[identifier, content], …], found "
                    + (try JSONValueKind(of: decoder)).summary,
                isTopLevel: true)
        }
        rows.reserveCapacity(items.count ?? 0)
        while !items.isAtEnd { rows.append(try items.decode(ListFileRow.self)) }
    }
}

/// One row of a lists file: `[identifier, content]` or `{"id": identifier, "content": content}`.
private struct ListFileRow: Decodable {
    enum Identifier: Decodable {
        case int(Int)
        case string(String)

        init(from decoder: any Decoder) throws {
            let row = ListFileRow.number(decoder)
            let container = try decoder.singleValueContainer()
            if !container.decodeNil() {
                do {
                    self = .int(try container.decode(Int.self))
                    return
                } catch DecodingError.typeMismatch {
                    // Not a number: a string, or another kind of value.
                } catch {
                    throw JSONInputProblem(
                        message: "row \(row): expected an identifier that is a string or a whole number in the range "
                            + "of Int, found \(try JSONValueKind(of: decoder).summary)")
                }
                do {
                    self = .string(try container.decode(String.self))
                    return
                } catch DecodingError.typeMismatch {}
            }
            throw JSONInputProblem(
                message: "row \(row): expected an identifier that is a string or a whole number, found "
                    + (try JSONValueKind(of: decoder)).summary)
        }
    }

    var id: Identifier
    /// The content as ``CompactJSON`` writes it.
    var content: String

    init(from decoder: any Decoder) throws {
        let row = ListFileRow.number(decoder)
        if var items = try? decoder.unkeyedContainer() {
            guard let count = items.count, count == 2 else {
                let count = items.count ?? 0
                let missing =
                    count == 0
                    ? "the identifier and the content are missing"
                    : count == 1 ? "the content is missing" : "it has more than two"
                throw JSONInputProblem(
                    message: "row \(row): expected [identifier, content], found "
                        + "\(JSONValueKind.array(count: count).summary) (\(missing))")
            }
            id = try items.decode(Identifier.self)
            content = try items.decode(CompactJSON.self).text
        } else if let members = try? decoder.container(keyedBy: JSONKey.self) {
            let names = Set(members.allKeys.map(\.stringValue))
            if let extra = names.subtracting(["id", "content"]).sorted().first {
                throw JSONInputProblem(
                    message: "row \(row): unexpected field \(JSONText.quoted(extra)); "
                        + "a row object has only \"id\" and \"content\"")
            }
            for field in ["id", "content"] where !names.contains(field) {
                throw JSONInputProblem(
                    message: "row \(row): missing field \"\(field)\" in {\"id\": identifier, \"content\": content}")
            }
            id = try members.decode(Identifier.self, forKey: JSONKey(stringValue: "id"))
            content = try members.decode(CompactJSON.self, forKey: JSONKey(stringValue: "content")).text
        } else {
            throw JSONInputProblem(
                message: "row \(row): expected [identifier, content] or {\"id\": …, \"content\": …}, found "
                    + (try JSONValueKind(of: decoder)).summary)
        }
    }

    /// The 1-based number of the row that `decoder` reads, or of the row that holds it.
    static func number(_ decoder: any Decoder) -> Int {
        (decoder.codingPath.first?.intValue ?? 0) + 1
    }
}
