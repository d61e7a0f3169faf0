import ArgumentParser
import FoundationEssentials
import Glibc
import SwaggerClient
import SwaggerModel

extension SwaggerCtl {
    struct GitCredential: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "git-credential",
            abstract: "Be git's credential helper for the servers you are logged in to.",
            discussion: """
                git runs it with get, store or erase and the request on standard input (gitcredentials(7)). get \
                answers for a server with a session, matched by protocol, host and port, and of the account git \
                names, if any: the user name, without control or bidi characters, and a fresh access token as the \
                password; for a server that signs in by HTTP Basic, the account and password themselves. Without \
                a path it is the active session on that origin; with credential.useHttpPath, the session of the \
                server whose path holds the repository's most closely, once . and .. are resolved. It says nothing \
                for other hosts, so git asks its other helpers. store and erase do nothing: the session is \
                swaggerctl's to end, with logout.

                --setup URL prints the git config lines that make it the helper for URL's origin, each value \
                quoted for a POSIX shell, without running them; URL may be a server's name, and needs a session \
                on its origin. The helper is this program as PATH finds it (`swaggerctl`) when PATH finds this \
                very file, else the path it was run by, so that an upgrade in place keeps git working.

                Examples:
                  swaggerctl git-credential --setup https://api.example.com
                  swaggerctl git-credential --setup https://api.example.com | sh   # runs them
                """)

        enum Action: String, ExpressibleByArgument, CaseIterable {
            case get, store, erase
        }

        @Argument(help: ArgumentHelp("get, store or erase, as git runs it."))
        var action: Action?

        @Option(
            help: ArgumentHelp("Print the git config lines for the server's origin.", valueName: "server"),
            completion: .custom(serverCompletions))
        var setup: String?

        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        func validate() throws {
            guard (action == nil) != (setup == nil) else {
                throw ValidationError("Give get, store or erase (as git does), or --setup URL.")
            }
        }

        func run() async throws {
            let connection = network.connection(keyring: keyring)
            if let setup {
                return try await GitCredentialCommand.setup(
                    ServerReference(setup), program: Self.program, connection: connection
                ).run(.terminal)
            }
            // git writes the request and closes the pipe; a person typing one ends it with an empty line.
            let bytes = Prompt.readBytes(upTo: GitCredentialRequest.sizeLimit + 1, from: STDIN_FILENO) { bytes in
                bytes.first == UInt8(ascii: "\n") || bytes.suffix(2) == [UInt8(ascii: "\n"), UInt8(ascii: "\n")]
            }
            guard bytes.count <= GitCredentialRequest.sizeLimit else {
                throw SwaggerError(.usage, "git-credential read more than 64 KiB, which git never sends.")
            }
            // store and erase read the request, as git expects, and do nothing: the session is swaggerctl's to end.
            guard action == .get else { return }
            try await GitCredentialCommand.get(request: String(decoding: bytes, as: UTF8.self), connection: connection)
                .run(.terminal)
        }

        /// This program as git should run it: as ``ProgramSearch/invocation(argument0:currentDirectory:path:found:)``
        /// says, else the file it was started from, else its name for PATH to find.
        static var program: String {
            let running = identity(of: "/proc/self/exe")
            let invoked = ProgramSearch.invocation(
                argument0: CommandLine.arguments.first ?? "",
                currentDirectory: FileManager.default.currentDirectoryPath,
                path: ProcessInfo.processInfo.environment["PATH"]
            ) { path in
                guard let file = identity(of: path), access(path, X_OK) == 0 else { return .missing }
                return file == running ? .thisProgram : .another
            }
            if let invoked { return invoked }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard count > 0 else { return "swaggerctl" }
            return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// The device and inode of the regular file at `path`, links followed; `nil` for anything else.
        private static func identity(of path: String) -> [UInt64]? {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return [UInt64(info.st_dev), UInt64(info.st_ino)]
        }
    }
}
