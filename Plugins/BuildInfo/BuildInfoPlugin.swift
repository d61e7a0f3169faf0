import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` for the target: the commit the package was built from, when git can tell, and the
/// Swift version that built it, for `swaggerctl --version`.
///
/// It is a build command whose inputs are the git files that name the commit (`HEAD`, the branch it points
/// to, `packed-refs`), so it runs again when a new commit is checked out, and not at every build.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
        let root = context.package.directoryURL
        return [
            .buildCommand(
                displayName: "Stamping the commit and the Swift version into \(target.name)",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", Self.script, "build-info", root.path(percentEncoded: false), output.path()],
                // A build command starts with an empty environment; git and swift are found on the PATH that
                // swift build itself runs with.
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
                inputFiles: Self.gitFiles(in: root),
                outputFiles: [output])
        ]
    }

    /// The files whose change means another commit: `.git/HEAD`, the ref it names, and `.git/packed-refs`.
    static func gitFiles(in root: URL) -> [URL] {
        let git = root.appending(path: ".git", directoryHint: .isDirectory)
        let head = git.appending(path: "HEAD")
        guard let text = try? String(contentsOf: head, encoding: .utf8) else { return [] }
        var files = [head]
        if text.hasPrefix("ref: ") {
            files.append(git.appending(path: text.dropFirst("ref: ".count).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let packed = git.appending(path: "packed-refs")
        if FileManager.default.fileExists(atPath: packed.path) { files.append(packed) }
        return files.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// `$1` is the package's folder and `$2` the file to write.
    static let script = #"""
        set -u
        root=$1 out=$2
        commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || true)
        swift=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
        quote() { if [ -n "$1" ]; then printf '"%s"' "$1"; else printf 'nil'; fi; }
        {
            printf '// Written by the BuildInfo plugin; not checked in.\n'
            printf 'enum BuildInfo {\n'
            printf '    static let commit: String? = %s\n' "$(quote "$commit")"
            printf '    static let swiftVersion: String? = %s\n' "$(quote "$swift")"
            printf '}\n'
        } > "$out"
        """#
}
