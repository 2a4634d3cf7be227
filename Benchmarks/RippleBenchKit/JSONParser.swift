/// A syntax error in JSON text: where, and what was expected.
struct JSONSyntaxError: Error, Equatable {
    var position: JSONNode.Position
    var message: String
}

/// Parses JSON text into ``JSONNode``s, never trapping on bad input.
struct JSONParser {
    /// Arrays and objects nested deeper than this are refused, so that a hostile file cannot
    /// exhaust the stack.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var column = 1

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The one value of `bytes` (UTF-8, an optional byte-order mark first), with nothing after it
    /// but whitespace.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.offset = 3 }
        parser.skipWhitespace()
        if parser.offset == bytes.count {
            throw JSONSyntaxError(position: parser.position, message: "the file is empty; expected a JSON value")
        }
        let node = try parser.value(depth: 0)
        parser.skipWhitespace()
        if parser.offset < bytes.count {
            throw parser.error("expected the end of the file after the JSON value, found \(parser.found)")
        }
        return node
    }

    /// Parses `text`.
    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        try parse(Array(text.utf8))
    }

    private var position: JSONNode.Position { JSONNode.Position(line: line, column: column) }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(position: position, message: message)
    }

    /// The next character, for messages.
    private var found: String {
        guard offset < bytes.count else { return "the end of the file" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "byte 0x\(String(byte, radix: 16, uppercase: true))" }
        // A non-ASCII character: decode it whole, or name the byte.
        var end = offset + 1
        while end < bytes.count && end < offset + 4 && bytes[end] & 0xC0 == 0x80 { end += 1 }
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        return text.unicodeScalars.first == "\u{FFFD}"
            ? "byte 0x\(String(byte, radix: 16, uppercase: true))" : "'\(text)'"
    }

    /// Moves past one byte, keeping the line and column.
    private mutating func advance() {
        let byte = bytes[offset]
        offset += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): advance()
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = position
        guard offset < bytes.count else { throw error("expected a JSON value, found the end of the file") }
        switch bytes[offset] {
        case UInt8(ascii: "["):
            guard depth < JSONParser.maximumDepth else {
                throw error("arrays and objects nested deeper than \(JSONParser.maximumDepth) levels")
            }
            advance()
            var items: [JSONNode] = []
            skipWhitespace()
            if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
                advance()
                return JSONNode(kind: .array(items), position: start)
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard offset < bytes.count else {
                    throw error("expected ',' or ']' after an array element, found the end of the file")
                }
                if bytes[offset] == UInt8(ascii: ",") {
                    advance()
                } else if bytes[offset] == UInt8(ascii: "]") {
                    advance()
                    return JSONNode(kind: .array(items), position: start)
                } else {
                    throw error("expected ',' or ']' after an array element, found \(found)")
                }
            }
        case UInt8(ascii: "{"):
            guard depth < JSONParser.maximumDepth else {
                throw error("arrays and objects nested deeper than \(JSONParser.maximumDepth) levels")
            }
            advance()
            var members: [(key: String, value: JSONNode)] = []
            var keys: Set<String> = []
            skipWhitespace()
            if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
                advance()
                return JSONNode(kind: .object(members), position: start)
            }
            while true {
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                    throw error("expected a member name in double quotes, found \(found)")
                }
                let keyPosition = position
                let key = try string()
                guard keys.insert(key).inserted else {
                    throw JSONSyntaxError(
                        position: keyPosition, message: "the member \(JSONNode.quoted(key)) appears twice in one object"
                    )
                }
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                    throw error("expected ':' after a member name, found \(found)")
                }
                advance()
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard offset < bytes.count else {
                    throw error("expected ',' or '}' after an object member, found the end of the file")
                }
                if bytes[offset] == UInt8(ascii: ",") {
                    advance()
                } else if bytes[offset] == UInt8(ascii: "}") {
                    advance()
                    return JSONNode(kind: .object(members), position: start)
                } else {
                    throw error("expected ',' or '}' after an object member, found \(found)")
                }
            }
        case UInt8(ascii: "\""):
            return JSONNode(kind: .string(try string()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(kind: .number(try number()), position: start)
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONNode(kind: .bool(true), position: start)
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONNode(kind: .bool(false), position: start)
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONNode(kind: .null, position: start)
        default:
            throw error("expected a JSON value, found \(found)")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let start = position
        for byte in word.utf8 {
            guard offset < bytes.count, bytes[offset] == byte else {
                throw JSONSyntaxError(position: start, message: "expected a JSON value (\(word)?), found \(found)")
            }
            advance()
        }
    }

    private mutating func digits() -> Int {
        var count = 0
        while offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") {
            advance()
            count += 1
        }
        return count
    }

    private mutating func number() throws(JSONSyntaxError) -> String {
        let start = offset
        if bytes[offset] == UInt8(ascii: "-") { advance() }
        guard offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") else {
            throw error("expected a digit in a number, found \(found)")
        }
        if bytes[offset] == UInt8(ascii: "0") {
            advance()
            if offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") {
                throw error("a number cannot have a leading zero")
            }
        } else {
            _ = digits()
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            advance()
            guard digits() > 0 else { throw error("expected a digit after the decimal point, found \(found)") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            advance()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                advance()
            }
            guard digits() > 0 else { throw error("expected a digit in the exponent, found \(found)") }
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count else {
                throw error("expected four hexadecimal digits after \\u, found the end of the file")
            }
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hexadecimal digits after \\u, found \(found)")
            }
            value = value << 4 | UInt32(digit)
            advance()
        }
        return value
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        advance()  // the opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = offset
        func flush(_ end: Int) {
            if end > runStart {
                scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars)
            }
        }
        while true {
            guard offset < bytes.count else {
                throw error("expected '\"' to end the string, found the end of the file")
            }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                flush(offset)
                advance()
                return String(scalars)
            }
            if byte < 0x20 {
                throw error("a control character (\(found)) must be escaped inside a string")
            }
            if byte != UInt8(ascii: "\\") {
                advance()
                continue
            }
            flush(offset)
            advance()
            guard offset < bytes.count else { throw error("expected an escape after '\\', found the end of the file") }
            let escape = bytes[offset]
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                advance()
                var value = try hexQuad()
                if (0xD800..<0xDC00).contains(value),
                    offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                    bytes[offset + 1] == UInt8(ascii: "u")
                {
                    advance()
                    advance()
                    let low = try hexQuad()
                    if (0xDC00..<0xE000).contains(low) {
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        scalars.append("\u{FFFD}")
                        value = low
                    }
                }
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                runStart = offset
                continue
            default:
                throw error("expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u) after '\\', found \(found)")
            }
            advance()
            runStart = offset
        }
    }
}
