// Speed of the betting engine, on one thread: hands per second of `felt simulate` (random legal
// actions, showdowns included, properties checked after every hand). Prints figures; asserts
// nothing (tests do that).
//
//   bench_betting [--hands N] [--runs R]
//
// 1. No-limit hold'em, 6 players: N hands (default 200,000), best of R runs (default 5); then the
//    same play with the checks off (shuffles, random choices and the engine only).
//    Then pot-limit Omaha, 6 players, the same way (issue 48's target: 250,000 hands a second).
// 2. Every variant and structure once, N / 4 hands each, for scale.
#include "poker/variant.h"
#include "simulate.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

int main(int argc, char** argv) {
    long hands = 200'000;
    int runs = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--hands")) hands = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    }
    felt::sim::Options o;
    o.hands = hands;
    double best = 0, best_alone = 0;
    felt::sim::Report r;
    for (int i = 0; i < runs; ++i) {
        o.check = true;
        r = felt::sim::simulate(o).value();
        if (!r.failure.empty()) {
            std::printf("property failed: %s\n", r.failure.c_str());
            return 1;
        }
        best = std::max(best, static_cast<double>(r.hands) / r.seconds);
        o.check = false;
        const auto alone = felt::sim::simulate(o).value();
        best_alone = std::max(best_alone, static_cast<double>(alone.hands) / alone.seconds);
    }
    std::printf("no-limit hold'em, 6 players, %ld hands: %.0f hands/s (best of %d), %.1f actions a "
                "hand, %.2f hands shown a hand, signature %s\n",
                hands, best, runs, static_cast<double>(r.actions) / static_cast<double>(r.hands),
                static_cast<double>(r.showdowns) / static_cast<double>(r.hands),
                felt::sim::hex(r.signature).c_str());
    std::printf("  the same play without the signature and the property checks: %.0f hands/s\n\n",
                best_alone);
    felt::sim::Options omaha;
    omaha.variant = "omaha";
    omaha.structure = "pot-limit";
    omaha.hands = hands;
    double best_omaha = 0;
    for (int i = 0; i < runs; ++i) {
        const auto ro = felt::sim::simulate(omaha).value();
        best_omaha = std::max(best_omaha, static_cast<double>(ro.hands) / ro.seconds);
    }
    std::printf("pot-limit Omaha, 6 players, %ld hands: %.0f hands/s (best of %d)\n\n", hands,
                best_omaha, runs);
    for (std::string_view variant : felt::poker::builtin_variant_names())
        for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"}) {
            felt::sim::Options v;
            v.variant = variant;
            v.structure = structure;
            v.players = std::min(6, felt::poker::builtin_variant(variant)->max_seats);
            v.hands = hands / 4;
            const auto rv = felt::sim::simulate(v).value();
            std::printf("  %-18.*s %-12s %8.0f hands/s\n", static_cast<int>(variant.size()),
                        variant.data(), structure, static_cast<double>(rv.hands) / rv.seconds);
        }
    return 0;
}
