import CJSONScan
import FoundationEssentials

/// JSON handled as text: indented and split without being decoded, so that member order, number spellings
/// and escapes stay exactly as the server sent them, as `jq` and `gh` keep them. The text is checked against
/// RFC 8259's grammar first; only then is it scanned.
package enum JSONText {
    /// The keys under which a page of a list keeps its items, in order of preference: Stack Exchange's and
    /// many others' `items`, Django REST Framework's `results`, Flask-AppBuilder's `result`, `data`, OData's
    /// `value`, Spring Data's `content`, and `records` and `entries`.
    package static let itemKeys = ["items", "results", "result", "data", "value", "content", "records", "entries"]

    /// Whether `data` is one JSON value, by RFC 8259's grammar, in UTF-8, nested at most `maximumDepth`
    /// deep. Checked rather than decoded: a number too large for a `Double` is still JSON.
    package static func isJSON(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var validator = Validator(bytes: raw.assumingMemoryBound(to: UInt8.self))
            return validator.document()
        }
    }

    /// The deepest nesting accepted, as deep as Foundation's decoders go; deeper text is refused rather than
    /// risk the stack.
    static let maximumDepth = 512

    /// `data` indented by two spaces for each level, with `": "` after each key; `nil` when it is not JSON.
    package static func indented(_ data: Data) -> String? {
        guard isJSON(data) else { return nil }
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var depth = 0
        var index = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = endOfString(bytes, from: index)
                output.append(contentsOf: bytes[index..<end])
                index = end
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let next = skippingSpace(bytes, from: index + 1)
                if next < bytes.count, bytes[next] == byte + 2 {  // `}` and `]` follow `{` and `[` by two.
                    output.append(bytes[next])
                    index = next + 1
                    continue
                }
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The text of each member of a top-level object, as sent; `nil` when `data` is not a JSON object. A key
    /// written with escapes is kept as written.
    package static func members(of data: Data) -> [String: String]? {
        guard isJSON(data) else { return nil }
        let bytes = [UInt8](data)
        let start = skippingSpace(bytes, from: 0)
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        return members(bytes, from: start).mapValues { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// RFC 8259's grammar, by recursive descent, over the bytes in place: a buffer rather than an array, whose every
    /// read would be checked and retained.
    private struct Validator {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// The byte at `index`, or 0, which no JSON token starts or continues with, past the end.
        private var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

        mutating func document() -> Bool {
            skipSpace()
            guard value() else { return false }
            skipSpace()
            return index == bytes.count
        }

        private mutating func value() -> Bool {
            switch current {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        // An object and an array each have a loop of their own, rather than one loop asking which it is at every
        // member: a page's check costs an eighth fewer instructions.
        private mutating func object() -> Bool {
            depth += 1
            defer { depth -= 1 }
            guard depth <= JSONText.maximumDepth else { return false }
            index += 1
            skipSpace()
            if current == UInt8(ascii: "}") {
                index += 1
                return true
            }
            while true {
                guard current == UInt8(ascii: "\""), string() else { return false }
                skipSpace()
                guard current == UInt8(ascii: ":") else { return false }
                index += 1
                skipSpace()
                guard value() else { return false }
                skipSpace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    skipSpace()
                } else if current == UInt8(ascii: "}") {
                    index += 1
                    return true
                } else {
                    return false
                }
            }
        }

        private mutating func array() -> Bool {
            depth += 1
            defer { depth -= 1 }
            guard depth <= JSONText.maximumDepth else { return false }
            index += 1
            skipSpace()
            if current == UInt8(ascii: "]") {
                index += 1
                return true
            }
            while true {
                guard value() else { return false }
                skipSpace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    skipSpace()
                } else if current == UInt8(ascii: "]") {
                    index += 1
                    return true
                } else {
                    return false
                }
            }
        }

        /// A string's plain bytes, in place: most strings hold nothing else. Inlined, with the rest of a string
        /// left to ``escapedString()``, it costs a page a fifth fewer instructions than one loop for every byte.
        @inline(__always)
        private mutating func string() -> Bool {
            var next = index + 1
            while next < bytes.count {
                let byte = bytes[next]
                if byte == UInt8(ascii: "\"") {
                    index = next + 1
                    return true
                }
                if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\") {
                    index = next
                    return escapedString()
                }
                next += 1
            }
            index = next
            return false
        }

        /// The rest of a string, from an escape, a control character or a byte past ASCII at `index`.
        @inline(never)
        private mutating func escapedString() -> Bool {
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                // Most bytes of most strings are plain ASCII: one comparison of the range lets them by.
                if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") { continue }
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return false }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count else { return false }
                        for offset in 0..<4 where !bytes[index + offset].isHexDigit { return false }
                        index += 4
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    default:
                        return false
                    }
                case 0..<0x20:
                    return false
                default:
                    // Only a string may hold bytes past ASCII, so the text is UTF-8 when each string is.
                    guard utf8Sequence(startingWith: byte) else { return false }
                }
            }
            return false
        }

        /// Whether the bytes after `lead`, which `index` is at, complete a well-formed UTF-8 sequence (Unicode's
        /// table 3-7: no overlong form, no surrogate, nothing past U+10FFFF); moves past them when they do.
        private mutating func utf8Sequence(startingWith lead: UInt8) -> Bool {
            let (count, second): (Int, ClosedRange<UInt8>) =
                switch lead {
                case 0xC2...0xDF: (1, 0x80...0xBF)
                case 0xE0: (2, 0xA0...0xBF)
                case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80...0xBF)
                case 0xED: (2, 0x80...0x9F)
                case 0xF0: (3, 0x90...0xBF)
                case 0xF1...0xF3: (3, 0x80...0xBF)
                case 0xF4: (3, 0x80...0x8F)
                default: (0, 0x80...0x80)
                }
            guard count > 0, index + count <= bytes.count, second.contains(bytes[index]) else { return false }
            for offset in 1..<count where !(0x80...0xBF).contains(bytes[index + offset]) { return false }
            index += count
            return true
        }

        private mutating func number() -> Bool {
            if current == UInt8(ascii: "-") { index += 1 }
            guard current.isDigit else { return false }
            if current == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
            if current == UInt8(ascii: ".") {
                index += 1
                guard current.isDigit else { return false }
                skipDigits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard current.isDigit else { return false }
                skipDigits()
            }
            return true
        }

        @inline(__always)
        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        private mutating func skipDigits() {
            while current.isDigit { index += 1 }
        }

        @inline(__always)
        private mutating func skipSpace() {
            // Compact JSON has no space between tokens: one comparison says so.
            guard index < bytes.count, bytes[index] <= UInt8(ascii: " ") else { return }
            while current.isJSONSpace { index += 1 }
        }
    }

    // MARK: - Scanning text already known to be JSON

    /// The members of the object that starts at `start`, by key, as ranges of their values. A key written
    /// with escapes is kept as written; none of the keys looked for needs them.
    static func members(_ bytes: [UInt8], from start: Int) -> [String: Range<Int>] {
        Dictionary(orderedMembers(bytes, from: start)) { _, last in last }
    }

    /// The members of a top-level object in the order they were sent, each with its value's text; `nil` when `data`
    /// is not a JSON object.
    package static func orderedMembers(of data: Data) -> [(key: String, value: String)]? {
        guard isJSON(data) else { return nil }
        let bytes = [UInt8](data)
        let start = skippingSpace(bytes, from: 0)
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        return orderedMembers(bytes, from: start).map { ($0.0, String(decoding: bytes[$0.1], as: UTF8.self)) }
    }

    private static func orderedMembers(_ bytes: [UInt8], from start: Int) -> [(String, Range<Int>)] {
        var members: [(String, Range<Int>)] = []
        var index = skippingSpace(bytes, from: start + 1)
        while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let keyEnd = endOfString(bytes, from: index)
            let key = String(decoding: bytes[(index + 1)..<(keyEnd - 1)], as: UTF8.self)
            let valueStart = skippingSpace(bytes, from: skippingSpace(bytes, from: keyEnd) + 1)
            let valueEnd = endOfValue(bytes, from: valueStart)
            members.append((key, valueStart..<valueEnd))
            index = skippingSpace(bytes, from: valueEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skippingSpace(bytes, from: index + 1)
        }
        return members
    }

    /// The text of each element of the array that starts at `start`.
    static func elements(_ bytes: [UInt8], from start: Int) -> [String] {
        var elements: [String] = []
        var index = skippingSpace(bytes, from: start + 1)
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
            let end = endOfValue(bytes, from: index)
            elements.append(String(decoding: bytes[index..<end], as: UTF8.self))
            index = skippingSpace(bytes, from: end)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skippingSpace(bytes, from: index + 1)
        }
        return elements
    }

    /// The index just past the value that starts at `start`.
    private static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return index
        default:
            // A number, true, false or null: up to the next delimiter.
            var index = start
            while index < bytes.count, !bytes[index].isJSONSpace,
                ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(bytes[index])
            {
                index += 1
            }
            return index
        }
    }

    /// The index just past the closing quote of the string that starts at `start`.
    static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    static func skippingSpace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index].isJSONSpace { index += 1 }
        return index
    }
}

extension UInt8 {
    /// JSON's whitespace between tokens.
    var isJSONSpace: Bool {
        self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") || self == UInt8(ascii: "\n")
            || self == UInt8(ascii: "\r")
    }
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isHexDigit: Bool {
        isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
