import FoundationEssentials

/// The examples of a command's help, each whole on its line, however narrow the terminal.
///
/// argument-parser wraps a command's discussion as prose, to the terminal's width, and starts what it breaks off at
/// column 0, where the rest of `server set … --profile-path /users/me/` reads as a command of its own. An example is
/// a line to copy, which a break spoils at any width: as gh's help does, each stays whole and indented, and a
/// terminal too narrow for it folds it where it likes.
enum HelpExamples {
    /// `help` with each indented line that argument-parser broke joined again.
    ///
    /// Examples are indented lines under a heading that ends in `:` (`Examples:`, `Quick start:`). argument-parser
    /// breaks a line only at a space, which it drops, and starts the rest at column 0: under such a heading, a line
    /// at column 0 that follows an indented one continues it.
    static func unwrapped(_ help: String) -> String {
        var lines: [String] = []
        var underHeading = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if underHeading, !line.isEmpty, !line.hasPrefix(" "), let last = lines.last, last.hasPrefix("  ") {
                lines[lines.count - 1] = last + " " + line
                continue
            }
            underHeading = (!line.hasPrefix(" ") && line.hasSuffix(":")) || (underHeading && line.hasPrefix("  "))
            lines.append(String(line))
        }
        return lines.joined(separator: "\n")
    }
}

/// Where the help sends a reader for more: `man swaggerctl` where the manual is installed beside this program (a
/// package's `/usr/share/man`, or `make install`'s prefix), else how to make it, since a clone has none until then.
enum HelpManual {
    static let pointer = "See swaggerctl(1) for more."

    static func pointing(_ help: String) -> String {
        guard help.contains(pointer) else { return help }
        let prefix = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = prefix.appending(path: "share/man/man1/swaggerctl.1").path
        let installed = [page, page + ".gz"].contains { FileManager.default.fileExists(atPath: $0) }
        return installed
            ? help.replacing(pointer, with: "See `man swaggerctl` for more.")
            : help.replacing(pointer, with: "\nIn a clone, `make man` writes the manual and `make deb` packages it.")
                .replacing(" \n", with: "\n")
    }
}
