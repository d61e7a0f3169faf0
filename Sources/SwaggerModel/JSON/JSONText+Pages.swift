import CJSONScan
import FoundationEssentials

/// A page of a list, read as text: its items, its outline and the members at its edges, without decoding it.
extension JSONText {
    /// The text of each item of a list: the elements of a top-level array, or of the array under one of
    /// ``itemKeys`` (in that order of preference) in a top-level object, or, with `paged`, under the object's only
    /// member that is an array. `nil` when `data` is not JSON or holds no such array.
    package static func items(of data: Data, paged: Bool = false) -> [String]? {
        guard isJSON(data) else { return nil }
        let bytes = [UInt8](data)
        let start = skippingSpace(bytes, from: 0)
        guard start < bytes.count else { return nil }
        if bytes[start] == UInt8(ascii: "[") { return elements(bytes, from: start) }
        guard bytes[start] == UInt8(ascii: "{") else { return nil }
        let members = self.members(bytes, from: start)
        guard let list = listMember(members, in: bytes, paged: paged) else { return nil }
        return elements(bytes, from: list.lowerBound)
    }

    /// The member of an object that holds its list: the first of ``itemKeys`` that is an array; on a page of a list
    /// (`paged`), else the only member that is one, as a list's own name holds it (Keystone's `users`). An object
    /// that is not a page, such as a profile with its `roles`, is no list of them.
    static func listMember(
        _ members: [String: Range<Int>], in bytes: some RandomAccessCollection<UInt8>, paged: Bool
    ) -> Range<Int>? {
        func isArray(_ range: Range<Int>) -> Bool {
            bytes[bytes.index(bytes.startIndex, offsetBy: range.lowerBound)] == UInt8(ascii: "[")
        }
        if let known = itemKeys.lazy.compactMap({ members[$0] }).first(where: isArray) { return known }
        guard paged else { return nil }
        let arrays = members.values.filter(isArray)
        return arrays.count == 1 ? arrays[0] : nil
    }

    /// A page of a list, as `--paginate` reads it (``outline(of:)``): its members, when it is an object, and the list
    /// it holds (as ``items(of:)`` finds it), as ranges of its bytes rather than text, without a copy of each item.
    package struct Page: Sendable {
        package let bytes: Data
        /// The top-level members, when the page is an object.
        package let members: ObjectText?
        /// Where the list's array is, `[` to `]`, and how many elements it has.
        package let list: Range<Int>?
        package let count: Int
    }

    /// A JSON object's members as ranges of its text: a member's text is made only when it is asked for.
    package struct ObjectText: Sendable {
        /// The text, from offset 0: the page itself, not a copy.
        let bytes: Data
        let ranges: [String: Range<Int>]

        /// The member's value as sent.
        package subscript(key: String) -> String? {
            ranges[key].map { String(decoding: bytes[$0], as: UTF8.self) }
        }

        /// Whether the member `key` is written the same, byte for byte, in `one` and `other`, or is in neither.
        package static func same(_ key: String, in one: ObjectText?, _ other: ObjectText?) -> Bool {
            guard let one, let mine = one.ranges[key] else { return other?.ranges[key] == nil }
            guard let other, let theirs = other.ranges[key] else { return false }
            return one.bytes[mine] == other.bytes[theirs]
        }

        /// Whether the member's value starts with `byte`: `[` for an array, without making its text.
        package func member(_ key: String, startsWith byte: UInt8) -> Bool {
            ranges[key].map { bytes[$0.lowerBound] == byte } ?? false
        }
    }

    /// A page as `--paginate` reads it: found from its structure alone (strings, brackets, commas and colons), which
    /// is all that says where the next page is. The page is shown as the server sent it, so its grammar is not
    /// checked: a page with a stray comma or a `NaN` deep in an item still leads to the next, where a check would
    /// have taken it for the last. On JSON it finds what a parser finds. `nil` when the text is not an object or
    /// an array whose brackets close, with nothing after.
    package static func outline(of data: Data) -> Page? {
        let bytes = zeroBased(data)
        let found = bytes.withUnsafeBytes { Outliner.outline($0.assumingMemoryBound(to: UInt8.self)) }
        guard let found else { return nil }
        let start = found.start
        var members: ObjectText?
        var list: Range<Int>?
        if bytes[start] == UInt8(ascii: "[") {
            list = start..<bytes.count
        } else {
            let ranges = Dictionary(found.members) { _, last in last }
            members = ObjectText(bytes: bytes, ranges: ranges)
            list = listMember(ranges, in: bytes, paged: true)
        }
        return Page(
            bytes: bytes, members: members, list: list, count: list.flatMap { found.arrayCounts[$0.lowerBound] } ?? 0)
    }

    /// The members at the edges of a top-level object: those before its first value that is an object or an array,
    /// and those after its last, read from each end without passing the values between. A page names its next one
    /// there, before or after its list, so `--paginate` can ask for it at once, before the page is outlined. `nil`
    /// when the text does not start and end as an object.
    package static func edgeMembers(of data: Data) -> ObjectText? {
        let bytes = zeroBased(data)
        let found = bytes.withUnsafeBytes { raw -> [(String, Range<Int>)]? in
            let buffer = raw.assumingMemoryBound(to: UInt8.self)
            guard let base = buffer.baseAddress else { return nil }
            var edges = Edges(bytes: base, count: buffer.count)
            return edges.members()
        }
        // In the text's order, the last of a key winning, as in ``outline(of:)``.
        return found.map {
            ObjectText(
                bytes: bytes,
                ranges: Dictionary($0.sorted { $0.1.lowerBound < $1.1.lowerBound }) { _, last in last })
        }
    }

    /// `data`, whose offsets start at 0: itself, unless it is a slice of other data.
    private static func zeroBased(_ data: Data) -> Data {
        data.startIndex == 0 ? data : Data(data)
    }

    /// The reading of ``edgeMembers(of:)``: forwards from the object's `{`, backwards from its `}`, each way as far
    /// as a value that opens or closes a container. Backwards, a string starts at the first quote before its end
    /// that an even number of backslashes precedes.
    private struct Edges {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var found: [(String, Range<Int>)] = []

        init(bytes: UnsafePointer<UInt8>, count: Int) {
            self.bytes = bytes
            self.count = count
        }

        mutating func members() -> [(String, Range<Int>)]? {
            let start = skip(from: 0)
            var end = count - 1
            while end > start, bytes[end].isJSONSpace { end -= 1 }
            guard end > start, bytes[start] == UInt8(ascii: "{"), bytes[end] == UInt8(ascii: "}") else { return nil }
            let last = forwards(from: start + 1, before: end)
            if last < end { backwards(from: end - 1, after: last) }
            return found
        }

        /// Reads members from `index` on; returns where it stopped: at the `}` when it read them all.
        private mutating func forwards(from start: Int, before end: Int) -> Int {
            var index = skip(from: start)
            while index < end, bytes[index] == UInt8(ascii: "\"") {
                let keyStart = index
                guard let keyEnd = endOfString(from: index + 1, before: end) else { return index }
                index = skip(from: keyEnd + 1)
                guard index < end, bytes[index] == UInt8(ascii: ":") else { return index }
                let valueStart = skip(from: index + 1)
                guard valueStart < end else { return valueStart }
                var valueEnd = valueStart
                switch bytes[valueStart] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    return keyStart
                case UInt8(ascii: "\""):
                    guard let close = endOfString(from: valueStart + 1, before: end) else { return keyStart }
                    valueEnd = close + 1
                default:
                    while valueEnd < end, !bytes[valueEnd].isJSONSpace, bytes[valueEnd] != UInt8(ascii: ","),
                        bytes[valueEnd] != UInt8(ascii: "}")
                    {
                        valueEnd += 1
                    }
                }
                add(key: (keyStart + 1)..<(keyEnd), value: valueStart..<valueEnd)
                index = skip(from: valueEnd)
                guard index < end, bytes[index] == UInt8(ascii: ",") else { return index }
                index = skip(from: index + 1)
            }
            return index
        }

        /// Reads members backwards from `index`, the last byte before the object's `}`, down to `floor`.
        private mutating func backwards(from start: Int, after floor: Int) {
            var index = start
            while true {
                while index > floor, bytes[index].isJSONSpace { index -= 1 }
                guard index > floor else { return }
                let valueEnd = index + 1
                let valueStart: Int
                switch bytes[index] {
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    return
                case UInt8(ascii: "\""):
                    guard let open = startOfString(endingAt: index, after: floor) else { return }
                    valueStart = open
                default:
                    var first = index
                    while first > floor + 1, !bytes[first - 1].isJSONSpace, bytes[first - 1] != UInt8(ascii: ":") {
                        first -= 1
                    }
                    valueStart = first
                }
                index = valueStart - 1
                while index > floor, bytes[index].isJSONSpace { index -= 1 }
                guard index > floor, bytes[index] == UInt8(ascii: ":") else { return }
                index -= 1
                while index > floor, bytes[index].isJSONSpace { index -= 1 }
                guard index > floor, bytes[index] == UInt8(ascii: "\""),
                    let keyStart = startOfString(endingAt: index, after: floor)
                else { return }
                add(key: (keyStart + 1)..<index, value: valueStart..<valueEnd)
                index = keyStart - 1
                while index > floor, bytes[index].isJSONSpace { index -= 1 }
                guard index > floor, bytes[index] == UInt8(ascii: ",") else { return }
                index -= 1
            }
        }

        private mutating func add(key: Range<Int>, value: Range<Int>) {
            let name = String(
                decoding: UnsafeBufferPointer(start: bytes + key.lowerBound, count: key.count), as: UTF8.self)
            found.append((name, value))
        }

        private func skip(from start: Int) -> Int {
            Outliner.skippingSpace(bytes, from: start, to: count)
        }

        /// The closing quote of the string whose text starts at `start`, before `end`.
        private func endOfString(from start: Int, before end: Int) -> Int? {
            Outliner.endOfString(bytes, from: start, count: end)
        }

        /// The opening quote of the string whose closing quote is at `close`.
        private func startOfString(endingAt close: Int, after floor: Int) -> Int? {
            var index = close - 1
            while index > floor {
                if bytes[index] == UInt8(ascii: "\"") {
                    var backslashes = 0
                    while index - backslashes - 1 > floor, bytes[index - backslashes - 1] == UInt8(ascii: "\\") {
                        backslashes += 1
                    }
                    if backslashes % 2 == 0 { return index }
                }
                index -= 1
            }
            return nil
        }
    }

    /// The scan of ``outline(of:)``: a loop over the top-level object's members, which passes each value that is a
    /// container whole (``endOfContainer(_:from:count:)``), since nothing below that level matters but where strings
    /// and brackets are. Most bytes of the members are none of those, and pass one test of a mask.
    private enum Outliner {
        struct Found {
            /// Where the top-level object or array starts.
            var start = 0
            var members: [(String, Range<Int>)] = []
            /// The element counts of the top-level array, or of the arrays that are top-level members.
            var arrayCounts: [Int: Int] = [:]
        }

        /// `"`, `,` and `:`, by their bits below 64; `[`, `]`, `{` and `}` by theirs above.
        private static let lowStructure: UInt64 = 1 << 0x22 | 1 << 0x2C | 1 << 0x3A
        private static let highStructure: UInt64 =
            1 << (0x5B - 64) | 1 << (0x5D - 64) | 1 << (0x7B - 64)
            | 1 << (0x7D - 64)

        static func outline(_ buffer: UnsafeBufferPointer<UInt8>) -> Found? {
            guard let bytes = buffer.baseAddress else { return nil }
            let count = buffer.count
            var index = skippingSpace(bytes, from: 0, to: count)
            guard index < count, bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") else {
                return nil
            }
            let isObject = bytes[index] == UInt8(ascii: "{")
            var found = Found(start: index)
            guard isObject else {
                guard let close = passContainer(opening: index, in: bytes, count: count, noting: &found) else {
                    return nil
                }
                return skippingSpace(bytes, from: close + 1, to: count) == count ? found : nil
            }
            // The top-level member being read: where its key starts, and where its value does once past its colon.
            var key: Range<Int>?
            var valueStart = -1
            index += 1
            while index < count {
                let byte = bytes[index]
                let structural =
                    byte < 64
                    ? (lowStructure >> UInt64(byte)) & 1 != 0
                    : byte < 128 && (highStructure >> UInt64(byte - 64)) & 1 != 0
                guard structural else {
                    index += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    let open = index
                    guard let close = endOfString(bytes, from: index + 1, count: count) else { return nil }
                    index = close
                    if valueStart < 0 { key = (open + 1)..<index }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    // A member's value that is a container, passed whole; a list, most of a page, is counted.
                    guard let close = passContainer(opening: index, in: bytes, count: count, noting: &found) else {
                        return nil
                    }
                    index = close
                case UInt8(ascii: ","):
                    note(&found, key: key, value: valueStart, end: index, in: bytes)
                    key = nil
                    valueStart = -1
                case UInt8(ascii: ":"):
                    if key != nil, valueStart < 0 {
                        valueStart = skippingSpace(bytes, from: index + 1, to: count)
                    }
                default:  // `]` or `}`: the object's end.
                    note(&found, key: key, value: valueStart, end: index, in: bytes)
                    return skippingSpace(bytes, from: index + 1, to: count) == count ? found : nil
                }
                index += 1
            }
            return nil
        }

        /// Passes the array or object that opens at `open`; returns where it closes. An array's elements are counted
        /// into `found`.
        private static func passContainer(
            opening open: Int, in bytes: UnsafePointer<UInt8>, count: Int, noting found: inout Found
        ) -> Int? {
            guard let (close, commas) = endOfContainer(bytes, from: open + 1, count: count) else { return nil }
            if bytes[open] == UInt8(ascii: "["), bytes[close] == UInt8(ascii: "]") {
                found.arrayCounts[open] = skippingSpace(bytes, from: open + 1, to: close) == close ? 0 : commas + 1
            }
            return close
        }

        /// Where the first byte from `start` on that is not space is, or `end` when there is none before it.
        static func skippingSpace(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
            var index = start
            while index < end, bytes[index].isJSONSpace { index += 1 }
            return index
        }

        /// Where the array or object whose contents start at `start` closes, and how many commas of its own level
        /// it holds. Read 64 bytes at a time: the quotes, backslashes, brackets and commas of a block are found
        /// together (`swaggerctl_json_classify`), its strings are the bytes between quotes (a running XOR of the
        /// quotes' bits), and only the brackets and commas outside them are visited. A block with a backslash,
        /// whose quotes may be escaped, and the last bytes are read one at a time.
        static func endOfContainer(_ bytes: UnsafePointer<UInt8>, from start: Int, count: Int) -> (
            close: Int, commas: Int
        )? {
            var index = start
            var depth = 1
            var commas = 0
            // All ones when the block starts inside a string, whose opening quote was in a block before.
            var inString: UInt64 = 0
            while index + 64 <= count {
                let block = swaggerctl_json_classify(bytes + index)
                guard block.backslashes == 0 else { break }
                let strings = insideStrings(block.quotes, carrying: inString)
                inString = 0 &- (strings >> 63)
                // Only the brackets are visited; the commas between two of them share a depth, and are counted
                // together when that depth is the container's own.
                var brackets = (block.opens | block.closes) & ~strings
                var uncounted = block.commas & ~strings
                while brackets != 0 {
                    let bit: UInt64 = brackets & (0 &- brackets)
                    let upToBit = bit | (bit &- 1)
                    if depth == 1 { commas += (uncounted & upToBit).nonzeroBitCount }
                    uncounted &= ~upToBit
                    if block.opens & bit != 0 {
                        depth += 1
                    } else {
                        depth -= 1
                        if depth == 0 { return (index + bit.trailingZeroBitCount, commas) }
                    }
                    brackets &= brackets &- 1
                }
                if depth == 1 { commas += uncounted.nonzeroBitCount }
                index += 64
            }
            if inString != 0 {
                guard let close = endOfString(bytes, from: index, count: count) else { return nil }
                index = close + 1
            }
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    guard let close = endOfString(bytes, from: index + 1, count: count) else { return nil }
                    index = close
                } else if byte | 0x20 == UInt8(ascii: "{") {  // `{` or `[`, which differ by that bit.
                    depth += 1
                } else if byte | 0x20 == UInt8(ascii: "}") {  // `}` or `]`.
                    depth -= 1
                    if depth == 0 { return (index, commas) }
                } else if byte == UInt8(ascii: ","), depth == 1 {
                    commas += 1
                }
                index += 1
            }
            return nil
        }

        /// The bit of each byte from an opening quote up to its closing one, the closing one not included, in a block
        /// whose quotes are `quotes`; `inString`, all ones when the block starts inside a string.
        @inline(__always)
        private static func insideStrings(_ quotes: UInt64, carrying inString: UInt64) -> UInt64 {
            var strings = quotes
            strings ^= strings << 1
            strings ^= strings << 2
            strings ^= strings << 4
            strings ^= strings << 8
            strings ^= strings << 16
            strings ^= strings << 32
            return strings ^ inString
        }

        /// Where the string whose text starts at `start` ends: its closing quote. Eight bytes are looked at a time
        /// for a quote or a backslash, most strings being shorter than that.
        @inline(__always)
        fileprivate static func endOfString(_ bytes: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
            var index = start
            while index < count {
                if index + 8 <= count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
                    let marks = zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
                    guard marks != 0 else {
                        index += 8
                        continue
                    }
                    index += marks.trailingZeroBitCount >> 3
                }
                switch bytes[index] {
                case UInt8(ascii: "\""): return index
                case UInt8(ascii: "\\"): index += 2
                default: index += 1
                }
            }
            return nil
        }

        /// The high bit of each zero byte of `word`; exact for its first zero byte, which is the one used.
        @inline(__always)
        private static func zeroBytes(_ word: UInt64) -> UInt64 {
            (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
        }

        /// Notes the top-level member whose value, from `value`, ends before `end`, less the space before it.
        private static func note(
            _ found: inout Found, key: Range<Int>?, value: Int, end: Int, in bytes: UnsafePointer<UInt8>
        ) {
            guard let key, value >= 0 else { return }
            var last = end
            while last > value, bytes[last - 1].isJSONSpace { last -= 1 }
            let name = String(
                decoding: UnsafeBufferPointer(start: bytes + key.lowerBound, count: key.count), as: UTF8.self)
            found.members.append((name, value..<last))
        }
    }
}
