#!/usr/bin/env bash
# Builds the container image (docker/Dockerfile) and checks that it works:
#  - the image runs as a non-root user, and its size is printed;
#  - /healthz answers, from outside and through the image's own `felt health`;
#  - `felt bot` plays hands against the container through its port;
#  - SIGTERM (a stop) ends it with exit status 0 within feltd's grace period;
#  - a new container on the same volume keeps the accounts and the history;
#  - docker/compose.yaml: its single node serves bots and keeps its history through down and up;
#    its cluster profile runs PostgreSQL and two nodes, each reading the hands played on the other.
# Uses docker when `docker info` reaches a daemon, else podman (installed here when missing) with
# the settings this kind of machine needs: chroot isolation and the docker format to build; runc,
# no default ulimits, cgroupfs and the host's network to run (compose's own bridge network works
# too). Base images that cannot be pulled are made by scripts/container-base.sh, and postgres:15
# by tests/container/postgres. Skips with one line when no engine can run, and the compose checks
# when neither `docker compose` nor podman-compose can be had.
# Usage: scripts/container-test.sh [build|check]   (needs build/felt: scripts/build.sh build first)
#   build: only builds the image (scripts/test.sh builds it in the background); check: only the
#   checks, on the image `build` made; neither: both.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mode=${1:-all}
case $mode in all | build | check) ;; *) echo "usage: container-test.sh [build|check]" >&2; exit 2 ;; esac
felt=build/felt
[ -x "$felt" ] || { echo "container-test: build/felt is missing (scripts/build.sh build)" >&2; exit 1; }

skip() {
    echo "container-test: skipped: $1"
    exit 0
}
build_args=()
run_args=()
if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    engine=docker
else
    if ! command -v podman >/dev/null; then
        [ "$(id -u)" -eq 0 ] || skip "no docker daemon, and podman is not installed (needs root to install)"
        echo "container-test: installing podman"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap uidmap \
            >/dev/null || skip "no docker daemon, and podman could not be installed"
    fi
    engine=podman
    conf=$(mktemp -d /tmp/felt-containers-XXXXXX)
    printf '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\n' \
        >"$conf/containers.conf"
    export CONTAINERS_CONF="$conf/containers.conf"
    build_args=(--isolation chroot --format docker)
    run_args=(--runtime runc)
fi
echo "container-test: engine $engine"

image=felt:test
name=felt-test-$$
volume=felt-test-data-$$
extra=() # CA files copied into the build context
cleanup() {
    "$engine" rm -f "$name" "$name-2" >/dev/null 2>&1 || true
    "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true
    if [ -n "${conf:-}" ]; then rm -rf "$conf"; fi
    if [ ${#extra[@]} -gt 0 ]; then rm -f "${extra[@]}"; fi
}
trap cleanup EXIT

failed=0
check() { # check NAME STATUS DETAIL: STATUS 0 passes
    if [ "$2" = 0 ]; then
        echo "  ok: $1"
    else
        echo "  FAIL: $1 ($3)"
        failed=$((failed + 1))
    fi
}

if [ "$mode" != check ]; then
    scripts/container-base.sh "$engine"
    # This machine's extra CAs (a TLS-intercepting proxy before npm's registry) for the build stage.
    for c in /usr/local/share/ca-certificates/*.crt; do
        if [ -f "$c" ]; then
            cp "$c" docker/extra-ca/
            extra+=("docker/extra-ca/$(basename "$c")")
        fi
    done
fi
"$engine" run "${run_args[@]}" --rm --network host debian:12-slim true >/dev/null 2>&1 ||
    skip "$engine cannot run a container here"
if [ "$mode" != check ]; then
    start=$(date +%s)
    "$engine" build "${build_args[@]}" -f docker/Dockerfile -t "$image" . >/tmp/felt-image-build.log 2>&1 || {
        tail -30 /tmp/felt-image-build.log
        echo "container-test: the image did not build" >&2
        exit 1
    }
    echo "container-test: image built in $(($(date +%s) - start)) s"
    [ "$mode" = build ] && exit 0
elif ! "$engine" image inspect "$image" >/dev/null 2>&1; then
    echo "container-test: no image $image: scripts/container-test.sh build first" >&2
    exit 1
fi
size=$("$engine" image inspect "$image" --format '{{.Size}}')
echo "container-test: image size $((size / 1024 / 1024)) MiB ($size bytes)"

user=$("$engine" image inspect "$image" --format '{{.Config.User}}')
uid=$("$engine" run "${run_args[@]}" --rm --network host --entrypoint id "$image" -u 2>/dev/null)
check "runs as a non-root user ($user, uid $uid)" "$([ -n "$user" ] && [ "$uid" != 0 ] && echo 0 || echo 1)" "user '$user', uid $uid"
health=$("$engine" image inspect "$image" --format '{{json .Config.Healthcheck}}')
check "has a HEALTHCHECK" "$([[ "$health" == *"felt health"* ]] && echo 0 || echo 1)" "$health"

free_ports() { # free_ports N: N different free loopback ports, held together while they are picked
    python3 -c 'import socket, sys
held = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in held: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in held))' "$1"
}
port=$(free_ports 1)
run() { # run NAME: a container on the volume, serving on $port
    if [ "$engine" = podman ]; then
        # (podman's complaint that no systemd runs its health-check timer is dropped: the
        # check below runs the HEALTHCHECK itself)
        "$engine" run "${run_args[@]}" -d --name "$1" --network host -e FELT_PORT="$port" \
            -v "$volume:/data" "$image" >/dev/null 2>&1
    else
        "$engine" run -d --name "$1" -p "127.0.0.1:$port:$port" -e FELT_PORT="$port" \
            -v "$volume:/data" "$image" >/dev/null
    fi
}
get() { # get PATH [PORT]: the body of http://127.0.0.1:PORT/PATH (PORT: $port), or nothing
    python3 -c 'import sys, urllib.request
try: print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode(), end="")
except Exception: pass' "http://127.0.0.1:${2:-$port}$1"
}
wait_healthy() { # wait_healthy [PORT]: up to 30 s for /healthz at PORT ($port)
    for _ in $(seq 60); do
        "$felt" health "http://127.0.0.1:${1:-$port}" --timeout 1 >/dev/null 2>&1 && return 0
        sleep 0.5
    done
    return 1
}
play() { # play PORT [TABLES SEATS HANDS]: the hands felt bot played there (1 table of 2, 2 hands), or -1
    "$felt" bot --url "ws://127.0.0.1:$1/ws" --tables "${2:-1}" --seats "${3:-2}" --hands "${4:-2}" \
        --json 2>/dev/null | python3 -c 'import json,sys
try:
    j = json.load(sys.stdin); print(j["hands"] if not j["errors"] and j["connected"] == j["bots"] else -1)
except Exception: print(-1)'
}

run "$name"
ok=0
wait_healthy || ok=1
check "/healthz answers from outside" $ok "$("$felt" health "http://127.0.0.1:$port" 2>&1 || true)"
ok=0
inside=$("$engine" exec "$name" felt health "http://127.0.0.1:$port/healthz" 2>&1) || ok=1
check "the image's own felt health: $inside" $ok "$inside"
ok=1
if [ "$engine" = podman ]; then
    podman healthcheck run "$name" >/dev/null 2>&1 && ok=0
else
    for _ in $(seq 40); do
        [ "$(docker inspect "$name" --format '{{.State.Health.Status}}')" = healthy ] && ok=0 && break
        sleep 1
    done
fi
check "the image's HEALTHCHECK passes" $ok "not healthy"
hands=$(play "$port" 2 3 3)
check "felt bot played hands through the port ($hands)" "$([ "$hands" -ge 6 ] && echo 0 || echo 1)" "felt bot failed"
history=$(get /api/hands/1)
player=$(echo "$history" | python3 -c 'import json,sys
try: print(json.load(sys.stdin)["config"]["names"][0])
except Exception: print("")')
totals=$(get "/api/players/$player/totals")
check "the first hand's history names its players ($player)" "$([ -n "$player" ] && [ -n "$totals" ] && echo 0 || echo 1)" "$history"

start=$(date +%s%N)
"$engine" stop -t 30 "$name" >/dev/null 2>&1
stopped_ms=$((($(date +%s%N) - start) / 1000000))
code=$("$engine" inspect "$name" --format '{{.State.ExitCode}}')
check "SIGTERM: exit status $code in $stopped_ms ms (grace 10 s)" "$([ "$code" = 0 ] && [ "$stopped_ms" -lt 11000 ] && echo 0 || echo 1)" "exit $code after $stopped_ms ms"

run "$name-2"
ok=0
wait_healthy || ok=1
check "a new container on the same volume starts" $ok "no answer from /healthz"
history2=$(get /api/hands/1)
totals2=$(get "/api/players/$player/totals")
check "it keeps the history (hand 1 unchanged)" "$([ -n "$history2" ] && [ "$history2" = "$history" ] && echo 0 || echo 1)" "$history2"
check "it keeps the accounts ($player's totals unchanged)" "$([ -n "$totals2" ] && [ "$totals2" = "$totals" ] && echo 0 || echo 1)" "$totals2"
"$engine" stop -t 30 "$name-2" >/dev/null 2>&1

# docker/compose.yaml as a host runs it: its single node, then its cluster profile (PostgreSQL and
# two nodes), on free host ports.
compose=()
if [ "$engine" = docker ]; then
    docker compose version >/dev/null 2>&1 && compose=(docker compose)
else
    if ! command -v podman-compose >/dev/null && [ "$(id -u)" -eq 0 ]; then
        echo "container-test: installing podman-compose"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman-compose >/dev/null || true
    fi
    if command -v podman-compose >/dev/null; then compose=(podman-compose --podman-args=--runtime=runc); fi
fi
if [ ${#compose[@]} -eq 0 ]; then
    echo "container-test: compose skipped: no 'docker compose', and no podman-compose"
else
    project=feltcompose$$
    compose+=(-p "$project" -f docker/compose.yaml)
    compose_log=/tmp/felt-compose-$$.log
    export FELT_HOST_PORT FELT_A_PORT FELT_B_PORT
    read -r FELT_HOST_PORT FELT_A_PORT FELT_B_PORT <<<"$(free_ports 3)"
    compose_down() { # down, with the named volumes and the anonymous ones (feltd's /data on a node)
        local ids vols
        ids=$("$engine" ps -aq --filter "label=com.docker.compose.project=$project")
        vols=$(if [ -n "$ids" ]; then "$engine" inspect --format '{{range .Mounts}}{{.Name}} {{end}}' $ids; fi)
        "${compose[@]}" down -v >>"$compose_log" 2>&1 || true
        if [ -n "$vols" ]; then "$engine" volume rm -f $vols >/dev/null 2>&1 || true; fi
    }
    compose_cleanup() {
        compose_down
        "$engine" network rm -f "${project}_default" >/dev/null 2>&1 || true
        if [ -n "${standin:-}" ]; then "$engine" rmi -f postgres:15 >/dev/null 2>&1 || true; fi
        rm -f "$compose_log"
        cleanup
    }
    trap compose_cleanup EXIT
    up() { "${compose[@]}" up -d --no-build "$@" >>"$compose_log" 2>&1; }
    # compose.yaml's services name the image `felt` (their `build` is the one just made).
    "$engine" tag "$image" felt
    echo "container-test: compose: ${compose[0]}"

    ok=0
    { up feltd && wait_healthy "$FELT_HOST_PORT"; } || ok=1
    check "compose: feltd answers on its published port" $ok "$(tail -5 "$compose_log")"
    hands=$(play "$FELT_HOST_PORT")
    first=$(get /api/hands/1 "$FELT_HOST_PORT")
    check "compose: felt bot played hands ($hands)" "$([ "$hands" -ge 2 ] && [ -n "$first" ] && echo 0 || echo 1)" "felt bot failed"
    "${compose[@]}" down >>"$compose_log" 2>&1 || true
    ok=0
    { up feltd && wait_healthy "$FELT_HOST_PORT"; } || ok=1
    again=$(get /api/hands/1 "$FELT_HOST_PORT")
    check "compose: down and up again keeps the history (the named volume)" "$([ $ok = 0 ] && [ "$again" = "$first" ] && echo 0 || echo 1)" "$again"
    compose_down

    # The cluster profile. An engine that cannot pull postgres:15 gets a stand-in built from
    # Debian's PostgreSQL 15 with the official image's interface (tests/container/postgres).
    if ! "$engine" image inspect postgres:15 >/dev/null 2>&1 &&
        ! timeout 300 "$engine" pull -q postgres:15 >/dev/null 2>&1; then
        echo "container-test: postgres:15 cannot be pulled: building a stand-in (tests/container/postgres)"
        standin=1
        "$engine" build "${build_args[@]}" -t postgres:15 tests/container/postgres >>"$compose_log" 2>&1 ||
            { tail -20 "$compose_log"; echo "container-test: the stand-in did not build" >&2; exit 1; }
    fi
    # Started first and waited for, as `depends_on: condition: service_healthy` asks (podman-compose
    # does not wait).
    up postgres || true
    pg=$("$engine" ps -q --filter "label=com.docker.compose.project=$project" \
        --filter "label=com.docker.compose.service=postgres")
    ok=1
    for _ in $(seq 60); do
        "$engine" exec "$pg" pg_isready -U felt -d felt >/dev/null 2>&1 && ok=0 && break
        sleep 0.5
    done
    check "compose cluster: PostgreSQL ready" $ok "$(tail -5 "$compose_log")"
    ok=0
    { up felt-a felt-b && wait_healthy "$FELT_A_PORT" && wait_healthy "$FELT_B_PORT"; } || ok=1
    check "compose cluster: felt-a and felt-b answer" $ok "$(tail -5 "$compose_log")"
    # Hands played on each node are in the other's history: one database under both. (Table ids
    # come from the one database too: felt-a's bots open table 1, felt-b's then table 2.)
    hands_a=$(play "$FELT_A_PORT")
    on_a=$(get /api/tables/1/hands "$FELT_A_PORT")
    from_b=$(get /api/tables/1/hands "$FELT_B_PORT")
    check "compose cluster: the hands played on felt-a are read from felt-b ($hands_a)" "$([ "$hands_a" -ge 2 ] && [[ "$on_a" == *'"hand":'* ]] && [ "$from_b" = "$on_a" ] && echo 0 || echo 1)" "$from_b"
    hands_b=$(play "$FELT_B_PORT")
    on_b=$(get /api/tables/2/hands "$FELT_B_PORT")
    from_a=$(get /api/tables/2/hands "$FELT_A_PORT")
    check "compose cluster: and those played on felt-b from felt-a ($hands_b)" "$([ "$hands_b" -ge 2 ] && [[ "$on_b" == *'"hand":'* ]] && [ "$from_a" = "$on_b" ] && echo 0 || echo 1)" "$from_a"
    compose_down
fi

echo "container-test: $failed failed"
[ "$failed" -eq 0 ]
