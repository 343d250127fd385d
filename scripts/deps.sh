#!/usr/bin/env bash
# Installs what Felt needs from Debian 12 packages; prints nothing when everything is there.
set -euo pipefail
packages=(
    g++ cmake ninja-build pkg-config
    libboost1.81-dev nlohmann-json3-dev libspdlog-dev libsqlite3-dev libpq-dev doctest-dev
    libcli11-dev libsodium-dev libtomlplusplus-dev libssl-dev libutf8proc-dev
    libjemalloc-dev # feltd's allocator
    clang libfuzzer-14-dev # the fuzzers (tests/fuzz, scripts/fuzz.sh)
    sqlite3 # the tests read the live database from outside, as a backup would
    ccache # a compiler cache for the next build, in ~/.cache/ccache (used when present)
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The web client's build (scripts/web.sh) needs Node.js 18 or newer and npm: Debian's, unless a
# newer Node.js is already on the PATH.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
echo "deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
