import SwaggerModel

/// How many terminal columns text takes, for aligning tables that hold non-ASCII values.
///
/// A grapheme cluster is one column, two when it is East Asian wide or full-width or an emoji shown as a
/// picture, and none when it is only combining or zero-width marks.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// `text` no wider than `width` columns: cut with `…` when it is wider.
    static func cut(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        var cut = ""
        var used = 0
        for character in text {
            let next = of(character)
            guard used + next <= width - 1 else { break }
            cut.append(character)
            used += next
        }
        return cut + "…"
    }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        if isWide(first.value) { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        if first.properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: true
        default: scalar.value == 0x200B
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges from Unicode's EastAsianWidth.txt, coarsened to blocks.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
