/// Where tokens may go: `--keyring`, else `SWAGGERCTL_KEYRING`, else ``auto``.
package enum BackendChoice: String, Sendable, Hashable, CaseIterable {
    /// The keyring when it answers in time, else the file, with a warning that says why.
    case auto
    /// The keyring, never the file: when the keyring cannot be used, the command fails.
    case keyring = "secret-service"
    /// The file, always; D-Bus is never touched.
    case file
    /// The kernel keyring, never anything else: when the kernel refuses it, the command fails. `auto` never
    /// chooses it, since the kernel forgets its keys at a reboot.
    case kernel

    /// Parses a backend name: `auto`, `secret-service`, `file` or `kernel`.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` for any other value.
    package init(parsing text: String) throws(SwaggerError) {
        guard let choice = BackendChoice(rawValue: text.lowercased()) else {
            let names = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw SwaggerError(.usage, "Unknown keyring \"\(text)\"; use one of: \(names).")
        }
        self = choice
    }
}
