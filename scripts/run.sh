#!/usr/bin/env bash
# Quick start, first command: install what is missing, build, run the server with its defaults
# (127.0.0.1:8080, database data/felt.db, the web client built into web/dist). Extra arguments go to feltd:
# scripts/run.sh --port 9000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release
scripts/web.sh build # the web client, into web/dist
exec ./build/feltd "$@"
