import ArgumentParser

extension SwaggerCtl {
    struct Completion: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "completion",
            abstract: "Print the completion script for bash, zsh or fish.",
            discussion: """
                The script completes commands and options, --server from the stored sessions, and --email from \
                the accounts stored for that server. make install and the Debian package install it for all \
                three shells; to load it yourself:

                Examples:
                  source <(swaggerctl completion bash)
                  swaggerctl completion zsh > "${fpath[1]}/_swaggerctl"
                  swaggerctl completion fish > ~/.config/fish/completions/swaggerctl.fish
                """)

        enum Shell: String, ExpressibleByArgument, CaseIterable {
            case bash, zsh, fish

            var completionShell: CompletionShell {
                switch self {
                case .bash: .bash
                case .zsh: .zsh
                case .fish: .fish
                }
            }
        }

        @Argument(help: "The shell: bash, zsh or fish.")
        var shell: Shell

        func run() {
            Terminal.print(SwaggerCtl.completionScript(for: shell.completionShell))
        }
    }
}
