// What the benchmark programs share: best-of-R timing, options, random 7-card hands.
#pragma once

#include "rankings/enumerate.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace felt::bench {

// Seconds of the fastest of `runs` calls: this machine is a shared VM whose speed varies by tens
// of percent from run to run, and the best run is the one least disturbed.
template <class F>
double best_seconds(int runs, F&& f) {
    double best = 1e300;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

// --hands N and --runs R, where given.
inline void parse_options(int argc, char** argv, long& hands, int& runs) {
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--hands")) hands = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    }
}

// N random 7-card hands of the pack (std::mt19937_64, seed 2026), both as card arrays and as
// precombined HandKeys, generated before any timing.
struct RandomHands {
    std::vector<std::array<Card, 8>> cards;
    std::vector<HandKey> keys;
};

inline RandomHands random_hands(long n) {
    std::printf("generating %ld random 7-card hands...\n", n);
    std::mt19937_64 rng(2026);
    const auto pack = standard_pack();
    RandomHands out;
    out.cards.resize(static_cast<std::size_t>(n));
    out.keys.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < out.cards.size(); ++i) {
        std::uint64_t used = 0;
        HandKey h;
        for (int j = 0; j < 7;) {
            const auto c = static_cast<unsigned>(rng() % 52);
            if (used >> c & 1) continue;
            used |= std::uint64_t{1} << c;
            out.cards[i][static_cast<std::size_t>(j++)] = pack[c];
            h = h + pack[c];
        }
        out.keys[i] = h;
    }
    return out;
}

} // namespace felt::bench
