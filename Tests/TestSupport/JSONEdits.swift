import SwaggerModel

/// Texts a few edits away from JSON, for comparing a reader of JSON text with a parser on what neither was written
/// for.
package enum JSONEdits {
    /// 4,000 texts made from `seeds` in turn by `fewest` to `fewest + 2` random edits each: a byte replaced, added or
    /// removed, the same ones for the same `seed`. The edits use only ASCII without `\u` escapes, where RFC 8259's
    /// rules and Foundation's parser agree.
    package static func edited(_ seeds: [String], seed: UInt64, fewest: Int) -> [[UInt8]] {
        let alphabet = Array(#"{}[],:" 0123456789.-+eEtrufalsn\/ab"#.utf8)
        var generator = SplitMix64(seed: seed)
        return (0..<4000).map { round in
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<(fewest + round % 3) {
                let at = Int(generator.next() % UInt64(bytes.count))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: bytes.remove(at: at)
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "0")] }
            }
            return bytes
        }
    }
}

extension JSONValue {
    /// How deeply the value nests: 0 for a scalar, 1 for an array or object of scalars.
    package var nesting: Int {
        switch self {
        case .array(let elements): 1 + (elements.map(\.nesting).max() ?? 0)
        case .object(let members): 1 + (members.values.map(\.nesting).max() ?? 0)
        default: 0
        }
    }
}
