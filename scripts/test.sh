#!/usr/bin/env bash
# Quick start, second command: install what is missing, build, run every test twice: in the
# release build, then in a build with AddressSanitizer and UndefinedBehaviorSanitizer; the web
# client's tests and browser tests, the PostgreSQL tests, and the fuzzers, once (release only),
# for a few seconds each; the container image once. At its end, passed or not, it prints a table
# of each phase's wall time (docs/benchmarks.md, "The test command's time").
set -euo pipefail
cd "$(dirname "$0")/.."

phases=() # "name|seconds|status", in order
phase() { # phase NAME COMMAND...: runs COMMAND and keeps its wall time for the table
    local name=$1 start=$SECONDS status=0
    shift
    "$@" || status=$?
    phases+=("$name|$((SECONDS - start))|$status")
    return "$status"
}
print_phases() {
    local row name seconds status
    echo
    echo "| phase | wall time | status |"
    echo "| --- | --- | --- |"
    for row in "${phases[@]}"; do
        IFS='|' read -r name seconds status <<<"$row"
        case $status in
        0) status=ok ;;
        background) status="ok, in the background" ;;
        *) status="failed ($status)" ;;
        esac
        printf '| %s | %d min %02d s | %s |\n' "$name" $((seconds / 60)) $((seconds % 60)) "$status"
    done
    printf '| total | %d min %02d s | |\n' $((SECONDS / 60)) $((SECONDS % 60))
}
pg_dir=""
background_pid=""
# The failed checks of a test phase, gathered from ctest's log: the output of a failed suite runs
# to megabytes of server logs, and a report that keeps only its head and tail loses them.
print_failures() {
    local log pattern=': (ERROR|FATAL ERROR): |^SUMMARY: |^==[0-9]+==ERROR'
    for log in build/Testing/Temporary/LastTest.log build-sanitize/Testing/Temporary/LastTest.log; do
        [ -f "$log" ] || continue
        if grep -q -E "$pattern" "$log"; then
            echo
            echo "failed checks in $log:"
            grep -B3 -A10 -E "$pattern" "$log" |
                grep -v -E '\[(info|warning)\]' | head -120
        fi
    done
}
finish() {
    if [ -n "$background_pid" ]; then kill -- "-$background_pid" 2>/dev/null || true; fi
    if [ -n "$pg_dir" ]; then scripts/pg.sh stop "$pg_dir"; fi
    print_failures
    print_phases
}
trap finish EXIT

phase "packages" scripts/deps.sh
phase "release build" scripts/build.sh build -DCMAKE_BUILD_TYPE=Release

# The other builds run in the background, one after another, while the tests run: the sanitizer
# build, the container image, the fuzzers. They run in the idle scheduling class (chrt --idle): a
# core runs them only when no test wants it, so they slow no test and fill the time the tests
# leave the CPU unused (docs/benchmarks.md, "The test command's time"). Each writes its output to
# build/background/NAME.log, printed if it fails, and its end to build/background/done.
# The sanitizer build: -g1, line tables only, is enough for the sanitizers' reports to name files,
# lines and functions, and compiles about a fifth faster than -g.
containers=${FELT_CONTAINER_TESTS:-1}
rm -rf build/background
mkdir -p build/background
export containers
setsid chrt --idle 0 bash -c '
    set -uo pipefail
    trap "echo \"end||\" >>build/background/done" EXIT
    step() { # step NAME COMMAND...
        local name=$1 start=$SECONDS status=0
        shift
        "$@" >"build/background/$name.log" 2>&1 || status=$?
        echo "$name|$((SECONDS - start))|$status" >>build/background/done
        [ "$status" = 0 ] || exit "$status"
    }
    step sanitizer-build scripts/build.sh build-sanitize -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DFELT_SANITIZE=ON -DFELT_BENCH=OFF
    if [ "$containers" != 0 ]; then step container-image scripts/container-test.sh build; fi
    step fuzzers-build scripts/fuzz.sh build
' &
background_pid=$!
after() { # after NAME: waits for the background step NAME; its output if it failed
    local name seconds status
    while :; do
        if [ -f build/background/done ] && grep -q "^$1|" build/background/done; then
            IFS='|' read -r name seconds status < <(grep "^$1|" build/background/done)
            phases+=("${name//-/ } (in the background)|$seconds|$([ "$status" = 0 ] && echo background || echo "$status")")
            if [ "$status" != 0 ]; then
                tail -60 "build/background/$1.log"
                echo "the background step $1 failed: build/background/$1.log" >&2
            fi
            return "$status"
        fi
        if grep -q "^end|" build/background/done 2>/dev/null; then
            echo "the background steps ended before $1" >&2
            return 1
        fi
        sleep 1
    done
}

# A private PostgreSQL server (scripts/pg.sh) for the release build's PostgreSQL tests and the
# browser cluster test, stopped however the run ends; the sanitizer build runs without it (its
# PostgreSQL cases say skipped).
unset FELT_TEST_PG FELT_TEST_PG_DIR
pg_dir=$(mktemp -d /tmp/felt-pg-XXXXXX)
pg_url=$(scripts/pg.sh start "$pg_dir")
# The server suite still runs alone (RUN_SERIAL).
phase "release tests" env FELT_TEST_PG="$pg_url" FELT_TEST_PG_DIR="$pg_dir" \
    ctest --test-dir build --output-on-failure -j2
# The web client: types, unit tests, then real Chromium against build/feltd (two nodes on the
# PostgreSQL server for the cluster test).
phase "web client (unit and Chromium)" env FELT_TEST_PG="$pg_url" scripts/web.sh test
scripts/pg.sh stop "$pg_dir"
pg_dir=""
phase "waiting for the sanitizer build" after sanitizer-build
phase "sanitizer tests" ctest --test-dir build-sanitize --output-on-failure -j2
# The container image (docker/Dockerfile), built and run with docker or podman.
# FELT_CONTAINER_TESTS=0 leaves it out.
if [ "$containers" != 0 ]; then
    phase "waiting for the container image" after container-image
    phase "container checks" scripts/container-test.sh check
else
    echo "container test: skipped (FELT_CONTAINER_TESTS=0)"
fi
phase "waiting for the fuzzers' build" after fuzzers-build
background_pid=""
# Each libFuzzer harness for a few seconds, under clang's sanitizers.
phase "fuzzers" scripts/fuzz.sh
