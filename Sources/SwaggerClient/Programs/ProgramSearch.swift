/// Where `exec` looks for its command, as POSIX's `command -v` finds it: a name with a `/` is that file, and any
/// other name is looked for in each folder of `PATH` in turn.
package enum ProgramSearch {
    /// The folders searched when `PATH` is unset: glibc's `confstr(_CS_PATH)`.
    static let defaultPath = "/bin:/usr/bin"

    /// The files that `name` may be, in the order they are tried.
    ///
    /// An empty `PATH` names no folder, and neither does an empty entry in one: POSIX reads either as the current
    /// folder, a legacy its shells keep, which would run a `./ls` planted where the person happens to be. The
    /// current folder is searched only when `PATH` names it (`.`).
    /// - Parameters:
    ///   - name: A path when it holds a `/`, taken as it is; else a file's name to look for in each folder.
    ///   - path: `PATH`'s value; `nil` when it is unset.
    package static func candidates(for name: String, path: String?) -> [String] {
        if name.contains("/") { return [name] }
        return (path ?? defaultPath).split(separator: ":").map { folder in
            folder.hasSuffix("/") ? "\(folder)\(name)" : "\(folder)/\(name)"
        }
    }
}

extension ProgramSearch {
    /// What a file that `PATH` may find is, to the program asking.
    package enum Found: Sendable, Hashable {
        /// No executable file there: the search goes on.
        case missing
        /// This very program, by any path or link.
        case thisProgram
        /// Another program, which the search stops at.
        case another
    }

    /// How another program (git) should run this one later: by its name alone when `PATH` finds this very file by
    /// that name, else by the path it was started by, made absolute; `nil` when it was started by a name that `PATH`
    /// does not find it by, and only the file itself can say where it is.
    ///
    /// The path as started, and not the file it resolves to, survives an upgrade that moves the file a link points
    /// to, or that installs into another folder on `PATH`.
    /// - Parameters:
    ///   - argument0: The program's first argument, as it was started.
    ///   - currentDirectory: The folder a relative first argument was started from.
    ///   - path: `PATH`'s value; `nil` when it is unset.
    ///   - found: What the file at a path is.
    package static func invocation(
        argument0: String, currentDirectory: String, path: String?, found: (String) -> Found
    ) -> String? {
        let name = argument0.split(separator: "/").last.map(String.init) ?? argument0
        if !name.isEmpty,
            candidates(for: name, path: path).lazy.map(found).first(where: { $0 != .missing }) == .thisProgram
        {
            return name
        }
        guard argument0.contains("/") else { return nil }
        if argument0.hasPrefix("/") { return argument0 }
        var relative = Substring(argument0)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return currentDirectory.hasSuffix("/") ? currentDirectory + relative : currentDirectory + "/" + relative
    }
}
