#!/usr/bin/env bash
# The capacity figures of docs/benchmarks.md, in one command, on an otherwise idle machine:
#  1. saturation: bench_floor (bare TCP) then feltd with 1,000 tables of 6 bots acting at once,
#     and feltd's share of the floor;
#  2. a person's pace: tables of 6 bots that think 1 to 4 s a decision, in steps up to the
#     largest count the open-file limit allows, then 3,000 tables with shorter thinking (the same
#     load as more tables at a person's pace), and the plot of the curve (docs/capacity.svg);
#  3. a long run: 1,000 tables at saturation for --long SECONDS (300), feltd's memory and the
#     database's size sampled every 10 s.
# Usage: scripts/capacity.sh [OUT_DIR (build/capacity)] [--long SECONDS] [--only saturation|paced|long]
# Takes about 15 minutes. Every run's JSON lines are kept in OUT_DIR.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out=build/capacity long=300 only=
while [ $# -gt 0 ]; do
    case $1 in
    --long) long=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) out=$1; shift ;;
    esac
done
cd "$root"
if [ ! -x build/bench_load ] || [ ! -x build/feltd ]; then
    scripts/deps.sh
    scripts/build.sh build -DCMAKE_BUILD_TYPE=Release
fi
mkdir -p "$out"
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }

if want saturation; then
    echo "== saturation: the floor, then feltd at 1,000 tables of 6"
    ./build/bench_load --tables 1000 --seconds 10 --json | tee "$out/saturation.jsonl"
fi
if want paced; then
    # The open-file limit (ulimit -n) bounds both feltd and the bots' process: 6 connections a
    # table, and about 100 descriptors to spare.
    limit=$(ulimit -n)
    top=$(((limit - 100) / 6 / 100 * 100))
    steps=
    for t in 500 1000 1500 2000 2500 3000 4000 5000; do
        [ "$t" -lt "$top" ] && steps="$steps$t,"
    done
    steps="$steps$top"
    echo "== a person's pace (1-4 s a decision): tables $steps"
    ./build/bench_load --think 1000-4000 --steps "$steps" --seconds 30 --warmup 5 --json |
        tee "$out/paced.jsonl"
    echo "== 3,000 tables, thinking faster: the load of more tables at a person's pace"
    : >"$out/faster.jsonl"
    for think in 500-2000 350-1400 250-1000 180-720 125-500; do
        ./build/bench_load --think "$think" --steps 3000 --seconds 30 --warmup 5 --json |
            tee -a "$out/faster.jsonl"
    done
    python3 tools/plot_capacity.py "$out/paced.jsonl" "$out/faster.jsonl" >docs/capacity.svg
    echo "plot: docs/capacity.svg"
fi
if want long; then
    echo "== a long run: 1,000 tables at saturation for $long s"
    ./build/bench_load --tables 1000 --no-floor --seconds "$long" --sample-every 10 --json |
        tee "$out/long.jsonl"
fi
