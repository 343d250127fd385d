#!/usr/bin/env bash
# Replays every hand history (.phh, .phhs) under a folder through the engine and prints the
# summary: hands replayed, failed, undecided, winnings checked and mismatched, hands per second,
# and the first few failures. Exit status 1 when any hand fails or disagrees.
# Usage: scripts/replay-corpus.sh DIR [--json]   (e.g. scripts/replay-corpus.sh ../shared/phh)
set -euo pipefail
dir=${1:?usage: scripts/replay-corpus.sh DIR [--json]}
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -x "$root/build/felt" ]; then
    "$root/scripts/deps.sh"
    (cd "$root" && scripts/build.sh build -DCMAKE_BUILD_TYPE=Release)
fi
exec "$root/build/felt" replay "$dir" "$@"
