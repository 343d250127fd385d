#!/usr/bin/env bash
# The web client (web/): installs its npm packages from the lockfile, then
#   web.sh build   generates the protocol types from protocol/schema and bundles web/dist
#   web.sh test    strict type checks, the unit tests, then the browser tests against a real
#                  feltd in Debian's chromium (installed here when missing; needs build/feltd)
# Needs Node.js 18 or newer (Debian 12's nodejs is 18; scripts/deps.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "web.sh: Node.js and npm are missing; scripts/deps.sh installs them" >&2
    exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 18 ]; then
    echo "web.sh: Node.js $(node --version) is too old; the web client needs 18 or newer" >&2
    exit 1
fi
# npm ci when the lockfile changed since the last install.
if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
case "${1:-build}" in
build)
    (cd web && npm run --silent build)
    ;;
test)
    (cd web && npm run --silent build && npm run --silent check && npm run --silent unit)
    if ! command -v chromium >/dev/null; then
        sudo=""
        [ "$(id -u)" -ne 0 ] && sudo=sudo
        echo "web.sh: installing Debian's chromium for the browser tests"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
    fi
    (cd web && FELTD="${FELTD:-../build/feltd}" FELT="${FELT:-../build/felt}" npm run --silent e2e)
    ;;
*)
    echo "usage: web.sh build|test" >&2
    exit 2
    ;;
esac
