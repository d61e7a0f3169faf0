import Foundation
import PackagePlugin

/// Writes `PresetFiles.swift` for the target: the text of each description in the package's `Presets` folder, by
/// its file's name, so that the presets are data files in the source tree and in the binary alike.
///
/// The files are the build command's inputs, so it runs again when one changes, and when the plugin is asked again
/// after a file was added or removed.
@main
struct PresetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Presets", directoryHint: .isDirectory)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "PresetFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the presets in \(target.name)",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", Self.script, "presets", output.path()] + files.map { $0.path() },
                inputFiles: files,
                outputFiles: [output])
        ]
    }

    /// `$1` is the file to write, and the rest the descriptions. Each is a raw string literal whose delimiter no
    /// description holds.
    static let script = ######"""
        set -eu
        out=$1
        shift
        {
            printf '// Written by the Presets plugin from Presets/*.json; not checked in.\n'
            printf 'enum PresetFiles {\n'
            printf '    static let files: [(name: String, text: String)] = [\n'
            for file in "$@"; do
                name=$(basename "$file" .json)
                printf '        ("%s", #####"""\n' "$name"
                cat "$file"
                printf '\n"""#####),\n'
            done
            printf '    ]\n'
            printf '}\n'
        } > "$out"
        """######
}
