#!/usr/bin/env bash
# Quick start, first command: install what is missing, build, run the main program.
# Extra arguments go to the program: scripts/run.sh eval As Ks Qs Js Ts
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release
exec ./build/felt "$@"
