/// Where `exec` looks for its command, as POSIX's `command -v` finds it: a name with a `/` is that file, and any
/// other name is looked for in each folder of `PATH` in turn.
package enum ProgramSearch {
    /// The folders searched when `PATH` is unset: glibc's `confstr(_CS_PATH)`.
    package static let defaultPath = "/bin:/usr/bin"

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
