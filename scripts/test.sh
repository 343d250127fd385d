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
        [ "$status" = 0 ] && status=ok || status="failed ($status)"
        printf '| %s | %d min %02d s | %s |\n' "$name" $((seconds / 60)) $((seconds % 60)) "$status"
    done
    printf '| total | %d min %02d s | |\n' $((SECONDS / 60)) $((SECONDS % 60))
}
pg_dir=""
finish() {
    if [ -n "$pg_dir" ]; then scripts/pg.sh stop "$pg_dir"; fi
    print_phases
}
trap finish EXIT

phase "packages" scripts/deps.sh
phase "release build" scripts/build.sh build -DCMAKE_BUILD_TYPE=Release
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
phase "fuzzers (build and runs)" scripts/fuzz.sh # each libFuzzer harness for a few seconds, under clang's sanitizers
# The container image (docker/Dockerfile), built and run with docker or podman: about 5 minutes
# (docs/benchmarks.md, "The container image"). FELT_CONTAINER_TESTS=0 leaves it out.
if [ "${FELT_CONTAINER_TESTS:-1}" != 0 ]; then
    phase "container image (build and checks)" scripts/container-test.sh
else
    echo "container test: skipped (FELT_CONTAINER_TESTS=0)"
fi
# -g1: line tables only, enough for the sanitizers' reports to name files, lines and functions; it
# compiles about a fifth faster than -g (docs/benchmarks.md, "The test command's time").
phase "sanitizer build" scripts/build.sh build-sanitize -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DFELT_SANITIZE=ON -DFELT_BENCH=OFF
phase "sanitizer tests" ctest --test-dir build-sanitize --output-on-failure -j2
