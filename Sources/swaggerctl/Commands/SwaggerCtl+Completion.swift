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

                For zsh, put the folder on fpath and run compinit in ~/.zshrc: fpath=(~/.zfunc $fpath); \
                autoload -Uz compinit && compinit

                Examples:
                  source <(swaggerctl completion bash)
                  mkdir -p ~/.zfunc && swaggerctl completion zsh > ~/.zfunc/_swaggerctl
                  mkdir -p ~/.config/fish/completions
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
            let script = SwaggerCtl.completionScript(for: shell.completionShell)
            Terminal.print(shell == .bash ? Self.joiningColons(script) : script)
        }

        /// argument-parser's bash script, made to complete URLs. bash splits the words it completes at every
        /// character of `COMP_WORDBREAKS`, `:` among them, so `http://h:8080/api` reaches the script as five
        /// words: it then takes `http` for the value of `--server`, and what follows for other arguments. The
        /// script is registered through a function that joins those words back first, and trims each
        /// candidate to the part after the current word's last `:`, which is all that bash replaces. A URL is
        /// not a file name either: readline would list only what follows its last `/`, so `api api api`.
        static func joiningColons(_ script: String) -> String {
            let registration = "complete -o filenames -F _swaggerctl swaggerctl"
            guard script.hasSuffix(registration) || script.hasSuffix(registration + "\n") else { return script }
            let function = #"""
                _swaggerctl_joining_colons() {
                    local -a joined=()
                    local -i index cword=0
                    local word current="${2}"
                    for index in "${!COMP_WORDS[@]}"; do
                        word="${COMP_WORDS[index]}"
                        if ((${#joined[@]} > 1)) && [[ "${word}" == :* || "${joined[-1]}" == *: ]]; then
                            joined[-1]+="${word}"
                            ((index == COMP_CWORD)) && current="${joined[-1]%"${word}"}${2}"
                        else
                            joined+=("${word}")
                        fi
                        ((index == COMP_CWORD)) && cword=$((${#joined[@]} - 1))
                    done
                    local -a COMP_WORDS=("${joined[@]}")
                    local -i COMP_CWORD="${cword}"
                    _swaggerctl "${1}" "${current}" "${COMP_WORDS[cword - 1]}"
                    if [[ "${COMPREPLY[*]}" == *://* ]]; then
                        compopt +o filenames 2>/dev/null
                    fi
                    if [[ "${current}" == *:* ]]; then
                        local colons="${current%"${current##*:}"}"
                        for index in "${!COMPREPLY[@]}"; do
                            COMPREPLY[index]="${COMPREPLY[index]#"${colons}"}"
                        done
                    fi
                }

                complete -o filenames -F _swaggerctl_joining_colons swaggerctl
                """#
            // The script is sourced, never run: a #! line only tells a reader otherwise (lintian's
            // bash-completion-with-hashbang).
            var body = Substring(script)
            if body.hasPrefix("#!"), let end = body.firstIndex(of: "\n") { body = body[body.index(after: end)...] }
            return String(body).replacing(registration, with: function)
        }
    }
}
