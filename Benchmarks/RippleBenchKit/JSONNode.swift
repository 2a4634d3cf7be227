/// A JSON value with the place it starts in its text, for error messages that point at it
/// (parsed by ``JSONParser``).
///
/// ripple-bench reads two kinds of JSON, the lists of `--lists` and the baselines of `--compare`,
/// and both must say where a file is wrong. Foundation's parsers report no position, so this small
/// parser (RFC 8259, UTF-8) does.
struct JSONNode {
    /// Where a value starts: a 1-based line and column (columns count Unicode scalars).
    struct Position: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int

        var description: String { "line \(line), column \(column)" }
    }

    indirect enum Kind {
        case null
        case bool(Bool)
        /// A number, as written.
        case number(String)
        case string(String)
        case array([JSONNode])
        /// The members in the order written; a repeated key is an error of the parser.
        case object([(key: String, value: JSONNode)])
    }

    var kind: Kind
    var position: Position

    /// What the value is, for messages: "a string", "an array of 3 elements", …
    var summary: String {
        switch kind {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .number(let text): return "the number \(text)"
        case .string(let text):
            return "the string \(JSONNode.quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text))"
        case .array(let items): return "an array of \(items.count) element\(items.count == 1 ? "" : "s")"
        case .object: return "an object"
        }
    }

    /// The member named `key` of an object, or `nil`.
    subscript(key: String) -> JSONNode? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value written as compact JSON: no whitespace outside strings, members in their order.
    var compactText: String {
        var text = ""
        appendCompact(to: &text)
        return text
    }

    private func appendCompact(to text: inout String) {
        switch kind {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let literal): text += literal
        case .string(let string): text += JSONNode.quoted(string)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                item.appendCompact(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                text += JSONNode.quoted(member.key) + ":"
                member.value.appendCompact(to: &text)
            }
            text += "}"
        }
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
