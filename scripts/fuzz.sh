#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (tests/fuzz) and runs each for FUZZ_SECONDS (6) from
# its corpus in tests/fuzz/corpus/NAME. New inputs go to build-fuzz/corpus/NAME, crashes to
# build-fuzz/crashes/; the corpus in the repository is only read. Exits non-zero on a crash.
# Longer: FUZZ_SECONDS=600 scripts/fuzz.sh, or run one harness by hand (docs/security.md).
# `scripts/fuzz.sh build` only builds them (scripts/test.sh builds them in the background).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-6}
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFELT_FUZZ=ON \
    -DFELT_BENCH=OFF -DFELT_WERROR=OFF >/dev/null
cmake --build build-fuzz --target fuzzers
[ "${1:-}" = build ] && exit 0
rm -rf build-fuzz/crashes # what an earlier run found is not this run's
mkdir -p build-fuzz/crashes
for name in request config phh poker leap settle settings; do
    mkdir -p "build-fuzz/corpus/$name"
    echo "fuzz: $name for ${seconds} s"
    log="build-fuzz/crashes/$name.log"
    build-fuzz/tests/fuzz/fuzz_$name -max_total_time="$seconds" -print_final_stats=0 \
        -artifact_prefix="build-fuzz/crashes/$name-" "build-fuzz/corpus/$name" \
        "tests/fuzz/corpus/$name" >"$log" 2>&1 || true
    grep -E "^(Done|==|SUMMARY)|ERROR" "$log" || true
    # libFuzzer exits non-zero on a crash, so look for the artifact; on a clean clone the input
    # is gone with the machine, so the report (its stack and the input, in hex and base64) is
    # printed in full.
    if compgen -G "build-fuzz/crashes/$name-*" >/dev/null; then
        sed -n '/ERROR: libFuzzer\|ERROR: AddressSanitizer\|runtime error\|terminate called/,$p' \
            "$log" | head -80 >&2
        echo "fuzz: $name crashed; the input is in build-fuzz/crashes/" >&2
        exit 1
    fi
    rm -f "$log"
done
