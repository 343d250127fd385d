// Speed of the leap rummy engine, on one thread: complete games per second of random legal play
// (`felt leap simulate`), every action through the engine's reducer. Prints figures; asserts
// nothing (tests do that).
//
//   bench_leap [--hands N] [--runs R]      (N: games, default 50,000; R: runs, default 5)
//
// 1. 4 players, 13 ranks, one pack, leaptokens: N games, best of R runs, per-action property
//    checks off (the tests run them), then once with them on.
// 2. Other decks and options once each, N / 5 games, checks off, for scale.
#include "bench_common.h"
#include "leap_sim.h"

#include <cstdio>

namespace {

felt::sim::LeapReport run(felt::sim::LeapOptions o) {
    auto r = felt::sim::simulate_leap(o);
    if (!r || !r->failure.empty()) {
        std::printf("failed: %s\n", r ? r->failure.c_str() : r.error().message.c_str());
        std::exit(1);
    }
    return r.value();
}

double per_second(const felt::sim::LeapReport& r) {
    return static_cast<double>(r.games) / r.seconds;
}

} // namespace

int main(int argc, char** argv) {
    long games = 50'000;
    int runs = 5;
    felt::bench::parse_options(argc, argv, games, runs);
    felt::sim::LeapOptions o;
    o.games = games;
    o.check = false;
    double best = 0;
    felt::sim::LeapReport r;
    for (int i = 0; i < runs; ++i) {
        r = run(o);
        best = std::max(best, per_second(r));
    }
    std::printf("4 players, 13 ranks, %ld games: %.0f games/s (best of %d), %.1f turns a game, "
                "%.2f melding actions a game, mean score %.3f, signature %s\n",
                games, best, runs, static_cast<double>(r.turns) / static_cast<double>(r.games),
                static_cast<double>(r.melds) / static_cast<double>(r.games), r.mean_score(),
                felt::sim::hex(r.signature).c_str());
    o.check = true;
    std::printf("  the same with every property checked after every action: %.0f games/s\n\n",
                per_second(run(o)));

    struct Case {
        const char* name;
        int players, ranks, packs, jokers;
        felt::leap::SuitRule suits;
        bool distinct;
    };
    const Case cases[] = {
        {"2 players, 5 ranks (Pinochle)", 2, 5, 0, 0, felt::leap::SuitRule::same_suit, false},
        {"3 players, 7 ranks", 3, 7, 0, 0, felt::leap::SuitRule::same_suit, false},
        {"4 players, 11 ranks, colour", 4, 11, 0, 0, felt::leap::SuitRule::same_colour, false},
        {"4 players, 12 ranks, distinct leaps", 4, 12, 0, 0, felt::leap::SuitRule::same_suit, true},
        {"4 players, 13 ranks, 2 jokers", 4, 13, 0, 2, felt::leap::SuitRule::same_suit, false},
        {"6 players, 13 ranks, two packs", 6, 13, 0, 0, felt::leap::SuitRule::same_suit, false},
        {"6 players, 17 ranks", 6, 17, 0, 0, felt::leap::SuitRule::same_suit, false},
    };
    for (const Case& c : cases) {
        felt::sim::LeapOptions v;
        v.players = c.players;
        v.rules.ranks = c.ranks;
        v.rules.packs = c.packs;
        v.rules.jokers = c.jokers;
        v.rules.suits = c.suits;
        v.rules.distinct_leaps = c.distinct;
        v.games = games / 5;
        v.check = false;
        std::printf("  %-40s %8.0f games/s\n", c.name, per_second(run(v)));
    }
    return 0;
}
