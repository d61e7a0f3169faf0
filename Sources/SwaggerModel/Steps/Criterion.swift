/// A condition on an answer, as Arazzo's criteria write one: a simple condition over runtime expressions and
/// literals (`$statusCode == 400 && $response.body#/code == 3`), or a regular expression that a value matches
/// (`{"context": "$response.header.WWW-Authenticate", "condition": "RabbitMQ", "type": "regex"}`).
///
/// A simple condition compares with `==`, `!=`, `<`, `<=`, `>` and `>=`, joins with `&&` and `||`, negates with
/// `!`, and groups with parentheses; its literals are numbers, strings in single or double quotes, `true`,
/// `false` and `null`. An expression alone is true when it has a value that is not `false` or `null`.
package struct Criterion: Sendable, Hashable, CustomStringConvertible {
    indirect enum Node: Sendable, Hashable {
        case value(Operand)
        case comparison(Operand, Comparison, Operand)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case matches(RuntimeExpression, pattern: String)
    }

    enum Operand: Sendable, Hashable {
        case expression(RuntimeExpression)
        case literal(JSONValue)
    }

    enum Comparison: String, Sendable, Hashable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case less = "<"
        case greater = ">"
    }

    let node: Node
    /// The text it was read from, as a description writes it back.
    package let description: String

    /// The longest condition read: a description's are a line.
    static let lengthLimit = 1024

    /// Reads a simple condition.
    /// - Throws: ``JSONPointer/Invalid`` naming where it stops being one.
    package init(_ text: String) throws(JSONPointer.Invalid) {
        guard text.utf8.count <= Self.lengthLimit else {
            throw JSONPointer.Invalid("a condition has at most \(Self.lengthLimit) characters")
        }
        var parser = Parser(text: Array(text.utf8))
        node = try parser.condition()
        description = text
    }

    /// A regular expression criterion: `context`'s value (a string as it is, anything else as its JSON) matches
    /// `pattern` somewhere.
    package init(context: String, pattern: String) throws(JSONPointer.Invalid) {
        guard pattern.utf8.count <= Self.lengthLimit, (try? Regex(pattern)) != nil else {
            throw JSONPointer.Invalid("\(pattern.prefix(60)) is not a regular expression")
        }
        node = .matches(try RuntimeExpression(context), pattern: pattern)
        description = "\(context) =~ \(pattern)"
    }

    /// `$response.body#/truncated == true`: a list the server cut short.
    static let truncated = Criterion(
        node: .comparison(.expression(.responseBody(JSONPointer(dotted: "truncated"))), .equal, .literal(.bool(true))),
        description: "$response.body#/truncated == true")

    private init(node: Node, description: String) {
        self.node = node
        self.description = description
    }

    /// `$statusCode == status`.
    package init(status: Int) {
        node = .comparison(.expression(.statusCode), .equal, .literal(.integer(Int64(status))))
        description = "$statusCode == \(status)"
    }

    /// The criterion as the description language writes it: the condition's text, or Arazzo's object for a
    /// regular expression.
    package var json: JSONValue {
        guard case .matches(let context, let pattern) = node else { return .string(description) }
        return ["context": .string(context.description), "condition": .string(pattern), "type": "regex"]
    }

    /// Reads a criterion as the description language writes it: a condition's text, or Arazzo's object with a
    /// `context`, a `condition` and a `type` of `simple` or `regex`.
    package init(json: JSONValue) throws(JSONPointer.Invalid) {
        switch json {
        case .string(let text): try self.init(text)
        case .integer(let status) where (100...599).contains(status): self.init(status: Int(status))
        case .object(let members):
            guard case .string(let condition)? = members["condition"] else {
                throw JSONPointer.Invalid("a criterion object has a condition")
            }
            switch (members["type"], members["context"]) {
            case (.string("regex")?, .string(let context)?): try self.init(context: context, pattern: condition)
            case (nil, nil), (.string("simple")?, nil): try self.init(condition)
            default: throw JSONPointer.Invalid("a criterion's type is simple, or regex with a context")
            }
        default:
            throw JSONPointer.Invalid("a criterion is a condition, such as \"$statusCode == 401\"")
        }
    }

    /// Whether `exchange` meets the condition.
    package func holds(in exchange: Exchange) -> Bool {
        Self.evaluate(node, exchange)
    }

    /// Whether the condition reads the answer's body.
    package var readsResponseBody: Bool { Self.readsBody(node) }

    private static func readsBody(_ node: Node) -> Bool {
        switch node {
        case .value(let operand): operand.readsBody
        case .comparison(let left, _, let right): left.readsBody || right.readsBody
        case .not(let inner): readsBody(inner)
        case .and(let left, let right), .or(let left, let right): readsBody(left) || readsBody(right)
        case .matches(let expression, _): expression.readsResponseBody
        }
    }

    private static func evaluate(_ node: Node, _ exchange: Exchange) -> Bool {
        switch node {
        case .value(let operand):
            switch operand.value(in: exchange) {
            case nil, .null?, .bool(false)?: return false
            default: return true
            }
        case .comparison(let left, let comparison, let right):
            return compare(left.value(in: exchange), comparison, right.value(in: exchange))
        case .not(let inner): return !evaluate(inner, exchange)
        case .and(let left, let right): return evaluate(left, exchange) && evaluate(right, exchange)
        case .or(let left, let right): return evaluate(left, exchange) || evaluate(right, exchange)
        case .matches(let expression, let pattern):
            guard let value = expression.value(in: exchange), let regex = try? Regex(pattern) else { return false }
            let text: String = if case .string(let string) = value { string } else { value.compactJSON }
            // A server's text is bounded before a pattern of a description's runs over it.
            return text.utf8.count <= 1 << 16 && text.contains(regex)
        }
    }

    /// Numbers compare as numbers, a number and text that reads as one too (a header's value against a status);
    /// text compares as text; anything else is only equal or not. A missing value equals `null`.
    private static func compare(_ left: JSONValue?, _ comparison: Comparison, _ right: JSONValue?) -> Bool {
        let left = left ?? .null
        let right = right ?? .null
        if let a = number(left, other: right), let b = number(right, other: left) {
            switch comparison {
            case .equal: return a == b
            case .notEqual: return a != b
            case .less: return a < b
            case .lessOrEqual: return a <= b
            case .greater: return a > b
            case .greaterOrEqual: return a >= b
            }
        }
        if case .string(let a) = left, case .string(let b) = right {
            switch comparison {
            case .equal: return a == b
            case .notEqual: return a != b
            case .less: return a < b
            case .lessOrEqual: return a <= b
            case .greater: return a > b
            case .greaterOrEqual: return a >= b
            }
        }
        switch comparison {
        case .equal: return left == right
        case .notEqual: return left != right
        default: return false
        }
    }

    /// `value` as a number, where it is one, or is text that reads as one beside a number.
    private static func number(_ value: JSONValue, other: JSONValue) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .number(let number): return number
        case .string(let text):
            switch other {
            case .integer, .number: return Double(text.trimmingWhitespace())
            default: return nil
            }
        default: return nil
        }
    }

    /// A recursive-descent reader of a simple condition, over its UTF-8 bytes.
    private struct Parser {
        let text: [UInt8]
        var index = 0
        var depth = 0

        mutating func condition() throws(JSONPointer.Invalid) -> Node {
            let node = try disjunction()
            skipSpaces()
            guard index == text.count else { throw failure("unexpected text") }
            return node
        }

        private mutating func disjunction() throws(JSONPointer.Invalid) -> Node {
            var node = try conjunction()
            while take("||") { node = .or(node, try conjunction()) }
            return node
        }

        private mutating func conjunction() throws(JSONPointer.Invalid) -> Node {
            var node = try unary()
            while take("&&") { node = .and(node, try unary()) }
            return node
        }

        private mutating func unary() throws(JSONPointer.Invalid) -> Node {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 32 else { throw failure("too deeply nested") }
            skipSpaces()
            if peek("!"), !peek("!=") {
                index += 1
                return .not(try unary())
            }
            if take("(") {
                let node = try disjunction()
                guard take(")") else { throw failure("a ( is not closed") }
                return node
            }
            let left = try operand()
            for comparison in Comparison.allCases where take(comparison.rawValue) {
                return .comparison(left, comparison, try operand())
            }
            return .value(left)
        }

        private mutating func operand() throws(JSONPointer.Invalid) -> Operand {
            skipSpaces()
            guard index < text.count else { throw failure("a value is missing") }
            let byte = text[index]
            if byte == UInt8(ascii: "$") {
                let start = index
                while index < text.count, !Self.endsExpression(text[index]) { index += 1 }
                return .expression(try RuntimeExpression(String(decoding: text[start..<index], as: UTF8.self)))
            }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") { return .literal(.string(try quoted(byte))) }
            let start = index
            while index < text.count, !Self.endsExpression(text[index]) { index += 1 }
            let word = String(decoding: text[start..<index], as: UTF8.self)
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                if let integer = Int64(word) { return .literal(.integer(integer)) }
                if let number = Double(word), number.isFinite { return .literal(.number(number)) }
                throw failure("\(word.prefix(40)) is not a value")
            }
        }

        /// A quoted string; a quote inside is doubled, or escaped with a backslash.
        private mutating func quoted(_ quote: UInt8) throws(JSONPointer.Invalid) -> String {
            index += 1
            var bytes: [UInt8] = []
            while index < text.count {
                let byte = text[index]
                index += 1
                if byte == UInt8(ascii: "\\"), index < text.count {
                    bytes.append(text[index])
                    index += 1
                } else if byte == quote {
                    guard index < text.count, text[index] == quote else {
                        return String(decoding: bytes, as: UTF8.self)
                    }
                    bytes.append(quote)
                    index += 1
                } else {
                    bytes.append(byte)
                }
            }
            throw failure("a string is not closed")
        }

        /// Where an expression or a bare word ends: a space, a parenthesis, or an operator's first character.
        private static func endsExpression(_ byte: UInt8) -> Bool {
            " \t)(=!<>&|".utf8.contains(byte)
        }

        private mutating func skipSpaces() {
            while index < text.count, text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\t") {
                index += 1
            }
        }

        private func peek(_ token: String) -> Bool {
            let bytes = Array(token.utf8)
            return index + bytes.count <= text.count && Array(text[index..<index + bytes.count]) == bytes
        }

        private mutating func take(_ token: String) -> Bool {
            skipSpaces()
            guard peek(token) else { return false }
            index += token.utf8.count
            return true
        }

        private func failure(_ reason: String) -> JSONPointer.Invalid {
            JSONPointer.Invalid("\(reason) in the condition \(String(decoding: text, as: UTF8.self).prefix(80))")
        }
    }
}

extension Criterion.Operand {
    func value(in exchange: Exchange) -> JSONValue? {
        switch self {
        case .expression(let expression): expression.value(in: exchange)
        case .literal(let value): value
        }
    }

    var readsBody: Bool {
        if case .expression(let expression) = self { expression.readsResponseBody } else { false }
    }
}

extension Array where Element == Criterion {
    /// Whether any of the criteria holds.
    package func anyHolds(in exchange: Exchange) -> Bool {
        contains { $0.holds(in: exchange) }
    }
}
