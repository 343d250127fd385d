#!/usr/bin/env bash
# Makes the Debian 12 base images docker/Dockerfile starts from (debian:12 and debian:12-slim)
# for an engine that cannot pull them: debootstrap --variant=minbase bookworm from this machine's
# own apt sources, then imported under both names. Does nothing when both images exist.
# Usage: scripts/container-base.sh ENGINE   (podman or docker)
set -euo pipefail
engine=${1:?usage: scripts/container-base.sh podman|docker}
have() { "$engine" image inspect "$1" >/dev/null 2>&1; }
if have debian:12 && have debian:12-slim; then exit 0; fi
# The first Debian mirror this machine's apt uses (deb822 .sources files, or sources.list).
mirror=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '{print $2}' | grep -v security | head -1 || true)
if [ -z "$mirror" ]; then
    mirror=$(grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk '{print $2}' | grep -v security | head -1 || true)
fi
[ -n "$mirror" ] || { echo "container-base: no Debian mirror in /etc/apt" >&2; exit 1; }
command -v debootstrap >/dev/null || {
    echo "container-base: installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}
dir=$(mktemp -d /tmp/felt-rootfs-XXXXXX)
trap 'rm -rf "$dir"' EXIT
echo "container-base: debootstrap bookworm from $mirror (about 90 s)"
debootstrap --variant=minbase bookworm "$dir" "$mirror" >/dev/null
rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
tar -C "$dir" -c . | "$engine" import - debian:12-slim >/dev/null 2>&1
"$engine" tag debian:12-slim debian:12
echo "container-base: imported debian:12 and debian:12-slim"
