import Foundation

/// Reads an input file (a list of `--lists`, a baseline of `--compare`) with `JSONDecoder`, and
/// turns whatever goes wrong into a ``BenchmarkFileError`` that names the file.
///
/// The types read check the shape of what they read in their `init(from:)` and throw a
/// ``JSONInputProblem`` that says what was expected (`row 2: …`). A file that is not JSON at all
/// is located by `JSONSerialization`, since `JSONDecoder` does not say where the text is wrong
/// (outside Apple's platforms it drops the parser's error).
enum JSONInput {
    /// The `Value` that `data`, the text of `file`, holds.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data, file: String) throws(BenchmarkFileError)
        -> Value
    {
        guard let start = firstValueOffset(in: data) else {
            throw BenchmarkFileError(
                file: file, position: position(ofOffset: data.count, in: data),
                message: "the file is empty; expected a JSON value")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch let problem as JSONInputProblem {
            throw BenchmarkFileError(
                file: file, position: problem.isTopLevel ? position(ofOffset: start, in: data) : nil,
                message: problem.message)
        } catch {
            throw syntaxError(in: data, file: file)
                ?? BenchmarkFileError(file: file, position: nil, message: "cannot be read: \(describe(error))")
        }
    }

    /// Where and why Foundation finds that `data` is not JSON, or `nil` when it reads it.
    private static func syntaxError(in data: Data, file: String) -> BenchmarkFileError? {
        var reason: String
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
        // Foundation says where as a line and column (Apple's platforms) or as a byte offset.
        var position: BenchmarkFileError.Position?
        var offset: Int?
        if let match = reason.firstMatch(of: /\s+around line (\d+), column (\d+)\.?$/),
            let line = Int(match.1), let column = Int(match.2)
        {
            position = BenchmarkFileError.Position(line: line, column: column)
            reason = String(reason[..<match.range.lowerBound])
        } else if let match = reason.firstMatch(of: /\s+(?:around character|starting from character|at) (\d+)\.?$/) {
            offset = Int(match.1)
            reason = String(reason[..<match.range.lowerBound])
        } else if reason.hasPrefix("Unexpected end of file during JSON parse") {
            offset = data.count
        }
        if let offset, offset <= data.count { position = self.position(ofOffset: offset, in: data) }
        let found = offset.map { character(at: $0, in: data) } ?? "it"
        let message: String
        switch reason {
        case _ where reason.hasPrefix("Invalid value"):
            message = "expected a value, ',', ':', ']', '}' or the end of the file, found \(found)"
        case _ where reason.hasPrefix("Unexpected end of file during JSON parse"):
            message =
                "expected the rest of the value (a closing ']', '}' or '\"', or the rest of true, false or null), "
                + "found the end of the file"
        case _ where reason.hasPrefix("Unescaped control character"):
            message = "a control character (\(found)) must be escaped inside a string"
        case _ where reason.hasPrefix("Too many nested"): message = "arrays and objects nested too deeply"
        case _ where reason.hasPrefix("Number with leading zero"): message = "a number cannot have a leading zero"
        case _ where reason.hasPrefix("Invalid escape sequence"):
            message = "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u) after '\\'"
        case _ where reason.hasPrefix("Invalid hex encoded sequence"):
            message = "expected four hexadecimal digits after \\u"
        case _ where reason.hasPrefix("Invalid UTF-8"): message = "the text is not UTF-8 (\(found))"
        default: message = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        }
        return BenchmarkFileError(file: file, position: position, message: "not valid JSON: " + message)
    }

    /// An error of `JSONDecoder` that `JSONSerialization` does not share, with its coding path.
    private static func describe(_ error: any Error) -> String {
        let context: DecodingError.Context
        switch error {
        case DecodingError.dataCorrupted(let found), DecodingError.keyNotFound(_, let found),
            DecodingError.typeMismatch(_, let found), DecodingError.valueNotFound(_, let found):
            context = found
        default: return "\(error)"
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? context.debugDescription : "at \(path): \(context.debugDescription)"
    }

    /// The offset of the first byte of the top-level value, after a byte-order mark and whitespace;
    /// `nil` when there is none.
    static func firstValueOffset(in data: Data) -> Int? {
        var offset = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while offset < data.count {
            switch data[data.startIndex + offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): offset += 1
            default: return offset
            }
        }
        return nil
    }

    /// The line and column of the byte at `offset` (columns count Unicode scalars).
    static func position(ofOffset offset: Int, in data: Data) -> BenchmarkFileError.Position {
        var position = BenchmarkFileError.Position(line: 1, column: 1)
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                position.line += 1
                position.column = 1
            } else if byte & 0xC0 != 0x80 {
                position.column += 1
            }
        }
        return position
    }

    /// The character at `offset`, for messages: `'x'`, `byte 0x1`, `the end of the file`.
    private static func character(at offset: Int, in data: Data) -> String {
        guard offset < data.count else { return "the end of the file" }
        let start = data.startIndex + offset
        let byte = data[start]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let scalar = String(decoding: data[start..<min(start + 4, data.endIndex)], as: UTF8.self).unicodeScalars.first
        guard byte >= 0x80, let scalar, scalar != "\u{FFFD}" else {
            return "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
        return "'\(scalar)'"
    }
}

/// What a type read by ``JSONInput`` finds wrong in its values, in a message that says where (a
/// row or a result, by number) and what was expected.
struct JSONInputProblem: Error {
    var message: String
    /// Whether the problem is the file's top-level value, so that the message can point at where
    /// that value starts.
    var isTopLevel = false
}

/// Any member name of an object.
struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// What a JSON value is, read through a `Decoder` without reading what an array or an object
/// holds: for messages (``summary``) and for ``CompactJSON``.
enum JSONValueKind {
    case null
    case bool(Bool)
    /// A number, as ``number(in:)`` writes it.
    case number(String)
    case string(String)
    case array(count: Int)
    case object

    /// The kind of the value `decoder` reads, tried in turn: null, a number, a string, an object,
    /// an array, a Boolean. A number or a string that Foundation cannot read throws.
    init(of decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let number = try JSONValueKind.number(in: container) {
            self = .number(number)
        } else if let string = try JSONValueKind.string(in: container) {
            self = .string(string)
        } else if (try? decoder.container(keyedBy: JSONKey.self)) != nil {
            self = .object
        } else if let items = try? decoder.unkeyedContainer() {
            self = .array(count: items.count ?? 0)
        } else {
            self = .bool(try container.decode(Bool.self))
        }
    }

    /// The number in `container` as text, or `nil` when it holds another kind of value (not null:
    /// the callers ask `decodeNil()` first). A number is written
    /// one way, whatever its text: `1`, `1.0` and `1e0` are `1`, `-1.50` is `-1.5`.
    static func number(in container: any SingleValueDecodingContainer) throws -> String? {
        do {
            return String(try container.decode(Int64.self))
        } catch DecodingError.typeMismatch {
            return nil
        } catch {
            // Not a whole number in the range of Int64: a decimal (38 significant digits).
            return try container.decode(Decimal.self).description
        }
    }

    /// The string in `container`, or `nil` when it holds no string.
    static func string(in container: any SingleValueDecodingContainer) throws -> String? {
        do {
            return try container.decode(String.self)
        } catch DecodingError.typeMismatch {
            return nil
        }
    }

    /// What the value is, for messages: "a string", "an array of 3 elements", …
    var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .number(let text): return "the number \(text)"
        case .string(let text):
            return "the string \(JSONText.quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text))"
        case .array(let count): return "an array of \(count) element\(count == 1 ? "" : "s")"
        case .object: return "an object"
        }
    }
}

/// Any JSON value as compact text written one way: no whitespace outside strings, the members of
/// an object in the order of their names, each number as ``JSONValueKind/number(in:)`` writes it.
/// Two values written differently in a file have the same text when they are the same JSON value.
struct CompactJSON: Decodable {
    var text = ""

    init(from decoder: any Decoder) throws {
        // The kinds in the order of JSONValueKind(of:), inlined: leaves are the most common values.
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            text = "null"
        } else if let number = try JSONValueKind.number(in: container) {
            text = number
        } else if let string = try JSONValueKind.string(in: container) {
            text = JSONText.quoted(string)
        } else if let members = try? decoder.container(keyedBy: JSONKey.self) {
            text = "{"
            for (index, key) in members.allKeys.sorted(by: { $0.stringValue < $1.stringValue }).enumerated() {
                if index > 0 { text += "," }
                text += JSONText.quoted(key.stringValue) + ":"
                text += try members.decode(CompactJSON.self, forKey: key).text
            }
            text += "}"
        } else if var items = try? decoder.unkeyedContainer() {
            text = "["
            while !items.isAtEnd {
                if items.currentIndex > 0 { text += "," }
                text += try items.decode(CompactJSON.self).text
            }
            text += "]"
        } else {
            text = try container.decode(Bool.self) ? "true" : "false"
        }
    }
}
