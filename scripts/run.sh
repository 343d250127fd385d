#!/usr/bin/env bash
# Quick start, first command: install what is missing, build, run the server with its defaults
# (127.0.0.1:8080, database data/felt.db, the web client built into web/dist). Extra arguments go to feltd:
# scripts/run.sh --port 9000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# Only what it runs: feltd and the felt tool (scripts/test.sh builds the rest, tests, benchmarks
# and fuzzers, in the same tree).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target feltd felt
scripts/web.sh build # the web client, into web/dist
exec ./build/feltd "$@"
