import FoundationEssentials

extension JSONValue {
    /// Reads JSON text (RFC 8259) as a value, as `JSONDecoder` reads it into ``JSONValue``, without its cost: going
    /// through `Decodable`, every value but `null` is tried as each type in turn, and each miss throws, which made
    /// reading a description file cost millions of instructions.
    ///
    /// It takes what `JSONDecoder` takes, so that either reads the same text the same way: a leading byte order mark,
    /// a comma before a closing bracket, the first of two members of one name; an integral number as an integer
    /// (`1.0`, `1e3`), any other within a `Double`'s range as a number; and no more than ``depthLimit`` levels.
    /// - Returns: `nil` for text that is not JSON, and for invalid UTF-8 in a string.
    package init?(parsing data: Data) {
        guard let parsed = data.withUnsafeBytes(Self.parse) else { return nil }
        self = parsed
    }

    /// Reads JSON text held in a string, as the bytes of `Data` are read: from the string's own storage,
    /// where `Data(text.utf8)` would copy it a byte at a time, which cost more than reading it.
    package init?(parsing text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        var parser = Parser(bytes: bytes)
        return parser.document()
    }

    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        }

        mutating func document() -> JSONValue? {
            guard let value = value(depth: 1) else { return nil }
            skipSpace()
            return index == bytes.count ? value : nil
        }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        private mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        /// The value at `index`. One that is not `kept` (the second of two members of a name, which JSONDecoder never
        /// reads) is checked as JSON, but its strings are not read: it is `null`.
        private mutating func value(depth: Int, kept: Bool = true) -> JSONValue? {
            skipSpace()
            guard let byte = current, depth <= JSONValue.depthLimit else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth, kept: kept)
            case UInt8(ascii: "["): return array(depth: depth, kept: kept)
            case UInt8(ascii: "\""): return kept ? string().map(JSONValue.string) : (skipString() ? .null : nil)
            case UInt8(ascii: "t"): return word("true", .bool(true))
            case UInt8(ascii: "f"): return word("false", .bool(false))
            case UInt8(ascii: "n"): return word("null", .null)
            default: return number(kept: kept)
            }
        }

        private mutating func word(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return nil }
            index += count
            return value
        }

        private mutating func object(depth: Int, kept: Bool) -> JSONValue? {
            index += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if current == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { return nil }
                let key: String?
                if kept {
                    guard let read = string() else { return nil }
                    key = read
                } else {
                    guard skipString() else { return nil }
                    key = nil
                }
                skipSpace()
                guard current == UInt8(ascii: ":") else { return nil }
                index += 1
                let keeps = key.map { members[$0] == nil } ?? false
                guard let member = value(depth: depth + 1, kept: keeps) else { return nil }
                if keeps, let key { members[key] = member }
                skipSpace()
                switch current {
                case UInt8(ascii: ","):
                    index += 1
                    skipSpace()
                    // A comma before the closing brace, which JSONDecoder lets pass.
                    if current == UInt8(ascii: "}") {
                        index += 1
                        return .object(members)
                    }
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(members)
                default: return nil
                }
            }
        }

        private mutating func array(depth: Int, kept: Bool) -> JSONValue? {
            index += 1
            var elements: [JSONValue] = []
            skipSpace()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1, kept: kept) else { return nil }
                if kept { elements.append(element) }
                skipSpace()
                switch current {
                case UInt8(ascii: ","):
                    index += 1
                    skipSpace()
                    if current == UInt8(ascii: "]") {
                        index += 1
                        return .array(elements)
                    }
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        /// A string, its opening quote at `index`: its text with each escape read, or `nil`.
        private mutating func string() -> String? {
            index += 1
            let start = index
            // The common case, with no escape: the bytes as they are, checked as UTF-8.
            while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                guard byte >= 0x20 else { return nil }
                index += 1
            }
            guard let stop = current else { return nil }
            if stop == UInt8(ascii: "\"") {
                index += 1
                return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
            }
            var text = Array(bytes[start..<index])
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(validating: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { return nil }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        text.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                default:
                    guard byte >= 0x20 else { return nil }
                    text.append(byte)
                    index += 1
                }
            }
            return nil
        }

        /// Passes over a string, its opening quote at `index`, as JSONDecoder's scan does: to the quote that no
        /// backslash escapes, and nothing in it looked at.
        private mutating func skipString() -> Bool {
            index += 1
            while let byte = current {
                index += byte == UInt8(ascii: "\\") ? 2 : 1
                if byte == UInt8(ascii: "\"") { return true }
            }
            return false
        }

        /// The scalar of a `\u` escape whose four digits are at `index`, with the low half that follows a high
        /// surrogate; `nil` for a surrogate without its other half.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hexQuad() else { return nil }
            switch high {
            case 0xD800...0xDBFF:
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { return nil }
                index += 2
                guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            case 0xDC00...0xDFFF: return nil
            default: return Unicode.Scalar(high)
            }
        }

        private mutating func hexQuad() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// A number as RFC 8259's grammar has it: an integer where it is one within `Int64`, or integral; else a
        /// `Double`, finite.
        private mutating func number(kept: Bool) -> JSONValue? {
            let start = index
            // What JSONDecoder's scan takes for a number it never reads: its characters, in any order.
            guard kept else {
                while let byte = current, Self.numberCharacters.contains(byte) { index += 1 }
                return index > start ? .null : nil
            }
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
            index += 1
            if first != UInt8(ascii: "0") { digits() }
            var integral = true
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
                integral = false
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return nil }
                integral = false
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            // Written as an integer, it is one, or a number beyond Int64's range; written otherwise, an integer
            // where it is integral, as JSONDecoder reads both.
            if integral {
                if let value = Int64(text) { return .integer(value) }
                guard let value = Double(text), value.isFinite else { return nil }
                return .number(value)
            }
            guard let value = Double(text), value.isFinite else { return nil }
            // Exactly an integer as a decimal (`505918651.14285713e8`), else as the Double it rounds to.
            if let whole = Self.exactInteger(text) { return .integer(whole) }
            if value == value.rounded(.towardZero), let whole = Int64(exactly: value) { return .integer(whole) }
            return .number(value)
        }

        /// The integer that `text`, a number with a fraction or an exponent, is exactly, as a decimal: `1.0`, `1e3`,
        /// `505918651.14285713e8`; `nil` for one that is not integral, or not within `Int64`.
        private static func exactInteger(_ text: String) -> Int64? {
            let parts = text.split(whereSeparator: { $0 == "e" || $0 == "E" })
            let mantissa = parts[0]
            guard let exponent = parts.count == 2 ? Int(parts[1]) : 0, abs(exponent) < 400 else { return nil }
            let negative = mantissa.hasPrefix("-")
            let whole = mantissa.drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
            var digits = Array(whole[0].utf8) + (whole.count == 2 ? Array(whole[1].utf8) : [])
            var scale = exponent - (whole.count == 2 ? whole[1].count : 0)
            // Trailing zeros go into the scale, leading ones away: what is left is the integer's own digits.
            while scale < 0, digits.last == UInt8(ascii: "0") {
                digits.removeLast()
                scale += 1
            }
            while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
            guard !digits.isEmpty else { return 0 }
            guard scale >= 0, digits.count + scale <= 19 else { return nil }
            var value: Int64 = 0
            for digit in digits + Array(repeating: UInt8(ascii: "0"), count: scale) {
                let (times, over) = value.multipliedReportingOverflow(by: 10)
                let (sum, overSum) = times.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
                guard !over, !overSum else { return nil }
                value = sum
            }
            return negative ? -value : value
        }

        private static let numberCharacters = Set("0123456789+-.eE".utf8)

        @discardableResult
        private mutating func digits() -> Int {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - start
        }
    }
}
