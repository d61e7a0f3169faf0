import ArgumentParser

extension SwaggerCtl {
    struct Completion: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "completion",
            abstract: "Print the completion script for bash, zsh or fish.",
            discussion: """
                The script completes commands and options, a server wherever one is taken from the servers \
                swaggerctl knows, --email from the accounts stored for that server, and api's operations and \
                fields (name=, then the values its schema lists). make install and the Debian package install it \
                for all three shells; to load it yourself:

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
            Terminal.print(Self.adapted(SwaggerCtl.completionScript(for: shell.completionShell)))
        }

        /// argument-parser's script for bash or zsh as swaggerctl prints it (``joiningColons(_:)``,
        /// ``leavingFieldsOpen(_:)``); any other text as it is.
        static func adapted(_ script: String) -> String {
            leavingFieldsOpen(joiningColons(script))
        }

        /// argument-parser's zsh script, made to leave a field's `name=` open. zsh puts a space after each candidate
        /// it inserts, so `-f st` became `status= `, after which Tab offers the next word instead of the field's values;
        /// a candidate that ends in `=` is added with no suffix.
        static func leavingFieldsOpen(_ script: String) -> String {
            let generated = #"""
                __swaggerctl_custom_complete() {
                    local -a completions
                    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
                    if [[ "${#completions[@]}" -gt 1 ]]; then
                        __swaggerctl_complete "${completions[@]:0:-1}"
                    fi
                }
                """#
            let open = #"""
                __swaggerctl_custom_complete() {
                    local -a completions fields
                    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
                    if [[ "${#completions[@]}" -gt 1 ]]; then
                        completions=("${completions[@]:0:-1}")
                        fields=("${(M)completions[@]:#*=}")
                        local -i ret=1
                        __swaggerctl_complete "${completions[@]:#*=}" && ret=0
                        if [[ "${#fields[@]}" -gt 0 ]]; then
                            _describe -V '' fields -S '' && ret=0
                        fi
                        return "${ret}"
                    fi
                }
                """#
            return script.replacing(generated, with: open)
        }

        /// argument-parser's bash script, made to complete URLs. bash splits the words it completes at every
        /// character of `COMP_WORDBREAKS`, `:`, `=` and `@` among them, so `http://h:8080/api` reaches the script as
        /// five words, `demo@e` as three, and `--server=URL` as `--server`, `=` and the pieces of the URL: the script
        /// would take `http` for the value of `--server`, and knows an option only as a word of its own. So the script
        /// is registered through a function that first joins the words that only a `:`, an `=` or an `@` separates in
        /// the line (`-s :` keeps its `:` apart), splits `--name=value` into the two words the script expects, and gives it a
        /// `COMP_LINE` and `COMP_POINT` to match. The current word, up to the cursor, is read from the line, not
        /// from bash's `$2`: straight after a `:`, `COMP_WORDS` ends in the `:` while `$2` is the empty word after
        /// it. bash replaces only `$2`, so each candidate is trimmed of the text before `$2`, which would otherwise
        /// be there twice (`http:http://`); when `=` is not a word break, `$2` starts with `--name=`, which is
        /// put back. A URL is not a file name either: readline would list only what follows its last `/`, so
        /// `api api api`.
        static func joiningColons(_ script: String) -> String {
            let registration = "complete -o filenames -F _swaggerctl swaggerctl"
            guard script.hasSuffix(registration) || script.hasSuffix(registration + "\n") else { return script }
            // The script is sourced, never run: a #! line only tells a reader otherwise (lintian's
            // bash-completion-with-hashbang).
            var body = Substring(script)
            if body.hasPrefix("#!"), let end = body.firstIndex(of: "\n") { body = body[body.index(after: end)...] }
            return String(body).replacing(registration, with: joiningFunction)
        }

        /// The function that registers the script, joining the words first (``joiningColons(_:)``).
        static let joiningFunction = #"""
            _swaggerctl_joining_colons() {
                local -a joined=()
                local -i index start end=0 cword=0 point=0
                local word gap typed line name option current="${2}" data=""
                for index in "${!COMP_WORDS[@]}"; do
                    word="${COMP_WORDS[index]}"
                    gap="${COMP_LINE:end}"
                    gap="${gap%%[![:space:]]*}"
                    start=$((end + ${#gap}))
                    end=$((start + ${#word}))
                    typed="${word::COMP_POINT > start ? COMP_POINT - start : 0}"
                    if [[ ${#joined[@]} -gt 1 && -z "${gap}" ]] \
                        && [[ "${word}" == [:=@]* || "${COMP_WORDS[index - 1]}" == *[:=@] ]]; then
                        typed="${joined[-1]}${typed}"
                        joined[-1]+="${word}"
                        ((index == COMP_CWORD)) && current="${typed}"
                    else
                        joined+=("${word}")
                        name=""
                    fi
                    if [[ "${joined[-1]}" == --*=* ]]; then
                        line="${joined[-1]}"
                        name="${line%%=*}="
                        joined[-1]="${line%%=*}"
                        joined+=("${line#*=}")
                        typed="${typed#*=}"
                        ((index == COMP_CWORD)) && current="${typed}"
                    fi
                    if ((index == COMP_CWORD)); then
                        cword=$((${#joined[@]} - 1))
                        option="${name}"
                        printf -v line '%s ' "${joined[@]::cword}"
                        point=$((${#line} + ${#typed}))
                    fi
                done
                local -a COMP_WORDS=("${joined[@]}")
                local -i COMP_CWORD="${cword}" COMP_POINT="${point}"
                local COMP_LINE
                printf -v COMP_LINE '%s ' "${joined[@]}"
                COMP_LINE="${COMP_LINE% }"
                _swaggerctl "${1}" "${current}" "${COMP_WORDS[cword - 1]}"
                if [[ "${COMPREPLY[*]}" == *://* ]]; then
                    compopt +o filenames 2>/dev/null
                fi
                # A field's name is completed with its `=`, and its value is typed straight after it.
                if [[ ${#COMPREPLY[@]} -gt 0 && "${COMPREPLY[-1]}" == *= ]]; then
                    compopt -o nospace 2>/dev/null
                fi
                line="${option}${current}"
                if [[ "${line}" == *"${2}" ]]; then
                    for index in "${!COMPREPLY[@]}"; do
                        COMPREPLY[index]="${option}${COMPREPLY[index]}"
                        COMPREPLY[index]="${COMPREPLY[index]#"${line%"${2}"}"}"
                    done
                fi
                # Readline's own quoting of file names leaves `$` as it is, and none is done without filenames:
                # candidates that are data are quoted here instead, whole, so that running the line expands
                # nothing of them.
                if [[ -n "${data}" ]]; then
                    compopt -o noquote 2>/dev/null
                    for index in "${!COMPREPLY[@]}"; do
                        printf -v 'COMPREPLY[index]' '%q' "${COMPREPLY[index]}"
                    done
                fi
            }

            # Candidates are data. argument-parser's script hands them to `compgen -W`, which expands each
            # one as a word of the shell's: an operation id or a server URL holding `$(…)` would run. Here they
            # are read a line each and kept when they start with the word typed, compared as text.
            __swaggerctl_add_completions() {
                local candidate
                if [[ "${1}" != -W ]]; then
                    while IFS='' read -r candidate; do
                        COMPREPLY+=("${candidate}")
                    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
                    return
                fi
                # The function that registered the script quotes them.
                data=1
                local -a candidates
                mapfile -t candidates <<<"${2}"
                for candidate in "${candidates[@]}"; do
                    if [[ -n "${candidate}" && "${candidate}" == "${cur}"* ]]; then
                        COMPREPLY+=("${candidate}")
                    fi
                done
            }

            complete -o filenames -F _swaggerctl_joining_colons swaggerctl
            """#
    }
}
