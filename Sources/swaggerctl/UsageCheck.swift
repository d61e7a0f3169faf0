/// What argument-parser leaves to the command: a subcommand that does not exist, and the shape of a usage
/// error.
enum UsageCheck {
    /// The message for a first word that names no command (`swaggerctl detials`, `swaggerctl help bogus`),
    /// with the closest command when one is near; `nil` when the words are fine as far as this goes.
    static func unknownCommand(in arguments: [String], commands: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        if first == "help" {
            guard let topic = arguments.dropFirst().first, !topic.hasPrefix("-"), !commands.contains(topic) else {
                return nil
            }
            return
                "There is no help for '\(topic)': it is not a swaggerctl command.\(suggestion(for: topic, in: commands))"
        }
        guard !commands.contains(first) else { return nil }
        return "'\(first)' is not a swaggerctl command.\(suggestion(for: first, in: commands))"
    }

    /// argument-parser's full message for a usage error, whose first line is `Error: …`, with that line made
    /// `swaggerctl: …` like every other error: the `Usage:` line and the pointer to `--help` follow.
    static func message(_ full: String) -> String {
        let text = full.hasPrefix("Error: ") ? "swaggerctl: " + full.dropFirst("Error: ".count) : "swaggerctl: " + full
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// `text` with each `USAGE:` or `Usage:` line that is wider than `width` folded at the spaces between its
    /// options, never inside a `[--name <value>]`, and continued under the first option, as man pages fold a
    /// synopsis: argument-parser writes a synopsis on one line, which a terminal breaks mid-word.
    static func foldingUsage(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.count > width, line.hasPrefix("USAGE: ") || line.hasPrefix("Usage: ") else { return line }
            let words = synopsisWords(line)
            // `Usage: swaggerctl details`, the command's name, and the options under it.
            let head = words.prefix { !$0.hasPrefix("[") && !$0.hasPrefix("-") && !$0.hasPrefix("<") }
            let indent = String(repeating: " ", count: min(head.joined(separator: " ").count + 1, width / 2))
            var rows = [head.joined(separator: " ")]
            for word in words.dropFirst(head.count) {
                if rows[rows.count - 1].count + 1 + word.count > width, rows[rows.count - 1] != indent {
                    rows.append(indent + word)
                } else {
                    rows[rows.count - 1] += (rows[rows.count - 1] == indent ? "" : " ") + word
                }
            }
            return rows.joined(separator: "\n")[...]
        }.joined(separator: "\n")
    }

    /// A synopsis's words, a bracketed group (`[--format <format>]`) being one.
    private static func synopsisWords(_ line: Substring) -> [String] {
        var words: [String] = []
        var word = ""
        var depth = 0
        for character in line {
            if character == " ", depth == 0 {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            if character == "[" || character == "<" { depth += 1 }
            if character == "]" || character == ">" { depth = max(0, depth - 1) }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    private static func suggestion(for word: String, in commands: [String]) -> String {
        let scored = commands.filter { $0 != "help" }.map { ($0, distance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, best.0.count / 3) else {
            return " Run `swaggerctl --help` for the commands."
        }
        return " Did you mean '\(best.0)'?"
    }

    /// The Damerau–Levenshtein distance (adjacent swaps count once), so that `detials` is one edit from
    /// `details`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
