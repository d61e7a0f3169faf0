# Sourced by scripts/bench and scripts/link-order, which time and trace swaggerctl against demo servers of their
# own. Each sets `bin` (the folder of the release build) and `work` (a folder of its own) first.
# shellcheck disable=SC2154 # bin and work, as above

# install_missing PACKAGE...: installs these Debian packages; root, or sudo.
install_missing() {
    (($#)) || return 0
    local sudo=()
    ((EUID == 0)) || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

server_pids=()

# Stops the servers and removes $work; for `trap … EXIT`.
stop_servers() {
    for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
    rm -rf "$work"
}

# start_server NAME OPTION...: a demo server on a free port, with its log in $work/NAME.err; prints its API's
# address.
start_server() {
    local name=$1
    shift
    "$bin/swagger-demo-server" --port 0 "$@" >"$work/$name.out" 2>"$work/$name.err" &
    server_pids+=("$!")
    until grep -q '^listening on ' "$work/$name.out" 2>/dev/null; do
        # A server that exits, say an older build without an option given here, must not leave us waiting.
        if ! kill -0 "$!" 2>/dev/null; then
            echo "$0: swagger-demo-server $* did not start:" >&2
            cat "$work/$name.err" >&2
            exit 1
        fi
        sleep 0.1
    done
}

# server_api NAME: the API address of the server that start_server NAME started.
server_api() {
    printf '%s/api' "$(sed -n 's/^listening on //p' "$work/$1.out")"
}
