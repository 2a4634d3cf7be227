import Foundation

/// One row of a user's list (`--lists`): an identifier and the content compared for updates.
struct ListRow<ID: Hashable & Sendable>: Identifiable, Equatable, Sendable {
    var id: ID
    /// The row's content as compact JSON text: two rows are equal when their content is written
    /// the same way, whitespace outside strings aside.
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

/// What is wrong with an input file (a list of `--lists`, a baseline of `--compare`), and where:
/// the file, the line and column, and what was expected there. Its description reads like a
/// compiler's: `feed-old.json:3:5: …`.
struct BenchmarkFileError: Error, Equatable, CustomStringConvertible {
    var file: String
    var position: JSONNode.Position?
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
/// files. The content is any JSON value; two rows have the same content when it is written the
/// same way, whitespace outside strings aside (`1` and `1.0` differ). Identifiers may repeat.
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
        return try parse(Array(data), file: path)
    }

    /// Parses the text of one file, named `file` in errors.
    static func parse(_ bytes: [UInt8], file: String) throws(BenchmarkFileError) -> BenchmarkList {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw BenchmarkFileError(file: file, position: error.position, message: error.message)
        }
        guard case .array(let rows) = root.kind else {
            throw BenchmarkFileError(
                file: file, position: root.position,
                message: "expected a JSON array of rows, [[identifier, content], …], found \(root.summary)")
        }
        var ints: [ListRow<Int>] = []
        var strings: [ListRow<String>] = []
        var first: (kind: String, row: Int)?
        for (index, row) in rows.enumerated() {
            let number = index + 1
            let (identifier, content) = try fields(of: row, number: number, file: file)
            switch identifier.kind {
            case .string(let id):
                if let first, first.kind != "string" {
                    throw mixed(identifier, number: number, kind: "a string", first: first, file: file)
                }
                first = first ?? ("string", number)
                strings.append(ListRow(id: id, content: content.compactText))
            case .number(let literal):
                guard let id = Int(literal) else {
                    throw BenchmarkFileError(
                        file: file, position: identifier.position,
                        message:
                            "row \(number): expected an identifier that is a string or a whole number in the range of Int, found \(identifier.summary)"
                    )
                }
                if let first, first.kind != "number" {
                    throw mixed(identifier, number: number, kind: "a number", first: first, file: file)
                }
                first = first ?? ("number", number)
                ints.append(ListRow(id: id, content: content.compactText))
            default:
                throw BenchmarkFileError(
                    file: file, position: identifier.position,
                    message:
                        "row \(number): expected an identifier that is a string or a whole number, found \(identifier.summary)"
                )
            }
        }
        return first?.kind == "string" ? .string(strings) : .int(ints)
    }

    /// The identifier and the content of row `number`.
    private static func fields(of row: JSONNode, number: Int, file: String) throws(BenchmarkFileError) -> (
        JSONNode, JSONNode
    ) {
        switch row.kind {
        case .array(let items):
            guard items.count == 2 else {
                let missing =
                    items.isEmpty
                    ? "the identifier and the content are missing"
                    : items.count == 1 ? "the content is missing" : "it has more than two"
                throw BenchmarkFileError(
                    file: file, position: row.position,
                    message: "row \(number): expected [identifier, content], found \(row.summary) (\(missing))")
            }
            return (items[0], items[1])
        case .object(let members):
            for member in members where member.key != "id" && member.key != "content" {
                throw BenchmarkFileError(
                    file: file, position: member.value.position,
                    message:
                        "row \(number): unexpected field \(JSONNode.quoted(member.key)); a row object has only \"id\" and \"content\""
                )
            }
            guard let identifier = row["id"] else {
                throw BenchmarkFileError(
                    file: file, position: row.position,
                    message: "row \(number): missing field \"id\" in {\"id\": identifier, \"content\": content}")
            }
            guard let content = row["content"] else {
                throw BenchmarkFileError(
                    file: file, position: row.position,
                    message: "row \(number): missing field \"content\" in {\"id\": identifier, \"content\": content}")
            }
            return (identifier, content)
        default:
            throw BenchmarkFileError(
                file: file, position: row.position,
                message:
                    "row \(number): expected [identifier, content] or {\"id\": …, \"content\": …}, found \(row.summary)"
            )
        }
    }

    private static func mixed(
        _ identifier: JSONNode, number: Int, kind: String, first: (kind: String, row: Int), file: String
    ) -> BenchmarkFileError {
        BenchmarkFileError(
            file: file, position: identifier.position,
            message: "row \(number): the identifier is \(kind), but row \(first.row)'s is a \(first.kind); "
                + "every identifier of a list must be of one kind (all strings or all whole numbers)")
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
