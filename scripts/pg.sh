#!/usr/bin/env bash
# A private PostgreSQL server for the tests and benchmarks: Debian's postgresql (installed when
# missing), a new cluster in a folder of its own, listening on a free loopback port and on a socket
# in that folder, trusting local connections from the user "felt". As root it runs as the
# unprivileged user "postgres" that the package creates (PostgreSQL refuses to run as root).
#
#   scripts/pg.sh start DIR   creates DIR, starts the server, prints its URL:
#                             postgresql://felt@127.0.0.1:PORT (append /DBNAME; "postgres" exists)
#   scripts/pg.sh stop DIR    stops it (fast shutdown) and removes DIR; quiet if it is not running
#   scripts/pg.sh down DIR    stops the server, keeping its data (a database that went away)
#   scripts/pg.sh up DIR      starts it again on the same port
#
# A caller that starts one stops it too, also on failure: trap 'scripts/pg.sh stop "$dir"' EXIT.
set -euo pipefail
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: scripts/pg.sh start|stop|down|up DIR" >&2; exit 2; }

bin=""
find_bin() {
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
}
find_bin
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
ctl() {
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 "$@"
}

case "$cmd" in
start)
    if [ -z "$bin" ] || ! [ -x "$bin/initdb" ]; then
        sudo=""
        [ "$(id -u)" -ne 0 ] && sudo=sudo
        echo "pg: installing postgresql" >&2
        $sudo apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            postgresql >/dev/null
        find_bin
    fi
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U felt --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # Sized for tests and a few feltd nodes on a small machine; fsync stays on, as in production.
    cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
max_connections = 200
shared_buffers = 128MB
EOF
    # A free port: try random ones until the server starts on one.
    for _ in $(seq 20); do
        port=$((20000 + RANDOM % 30000))
        if ctl -o "-p $port" start >/dev/null 2>&1; then
            echo "$port" >"$dir/port"
            echo "postgresql://felt@127.0.0.1:$port"
            exit 0
        fi
    done
    echo "pg: the server did not start; its log:" >&2
    cat "$dir/log" >&2
    exit 1
    ;;
stop)
    if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
        ctl -m fast stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
down)
    ctl -m fast stop >/dev/null
    ;;
up)
    ctl -o "-p $(cat "$dir/port")" start >/dev/null
    ;;
*)
    echo "usage: scripts/pg.sh start|stop|down|up DIR" >&2
    exit 2
    ;;
esac
