// Speed of the equity calculator (engine/odds/equity.h), exact, on one thread. Prints figures;
// asserts nothing (tests do that).
//
//   bench_equity [--hands N] [--runs R]
//   bench_equity --list [--hands N]     the matchups, one a line, for a peer's driver
//
//   heads-up: N random hand-against-hand matchups before the flop (default 1,000; std::mt19937_64
//     seed 2026, four different cards of the 52 by rng() % 52), each enumerated exactly: the mean
//     and the slowest time;
//   two named matchups, AsKd against QhQc and AhKh against QsQd;
//   CandyPoker's three vectors: time and showdowns a second.
// Each figure is the best of R runs (default 5). docs/benchmarks.md sets OMPEval's calculator
// beside these, built from its public source with a driver that times the same inputs.
#include "bench_common.h"
#include "cards/deck.h"
#include "odds/equity.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace felt;
using bench::best_seconds;

namespace {

odds::Equity exact(const std::vector<std::string>& hands) {
    auto q = odds::make_query(odds::Game::holdem, hands, "", "").value();
    q.exact = true;
    return odds::equity(q).value();
}

void timed(const char* what, const std::vector<std::string>& hands, int runs) {
    odds::Equity e;
    const double s = best_seconds(runs, [&] { e = exact(hands); });
    std::printf("%-34s %9.3f ms  %14.0f showdowns  %8.1f billion showdowns/s  (", what, s * 1e3,
                e.showdowns, e.showdowns / s / 1e9);
    for (std::size_t i = 0; i < e.equity.size(); ++i)
        std::printf("%s%.3f", i ? " / " : "", e.equity[i]);
    std::printf(")\n");
}

} // namespace

int main(int argc, char** argv) {
    long hands = 1000;
    int runs = 5;
    const bool list = argc > 1 && std::string_view(argv[1]) == "--list";
    bench::parse_options(argc - list, argv + list, hands, runs);
    const Deck deck = Deck::standard();
    const auto pack = deck.cards();
    std::mt19937_64 rng(2026);
    std::vector<std::vector<std::string>> matchups;
    for (long i = 0; i < hands; ++i) {
        std::vector<Card> c;
        while (c.size() < 4) {
            const Card x = pack[rng() % 52];
            if (std::find(c.begin(), c.end(), x) == c.end()) c.push_back(x);
        }
        matchups.push_back({deck.to_string(c[0]) + deck.to_string(c[1]),
                            deck.to_string(c[2]) + deck.to_string(c[3])});
    }
    if (list) {
        for (const auto& m : matchups) std::printf("%s %s\n", m[0].c_str(), m[1].c_str());
        return 0;
    }
    double total = 0, slowest = 0;
    for (const auto& m : matchups) {
        const double s = best_seconds(runs, [&] { exact(m); });
        total += s;
        slowest = std::max(slowest, s);
    }
    std::printf("heads-up, %ld random matchups preflop, exact: mean %.3f ms, slowest %.3f ms\n",
                hands, total / static_cast<double>(hands) * 1e3, slowest * 1e3);
    timed("AsKd vs QhQc", {"AsKd", "QhQc"}, runs);
    timed("AhKh vs QsQd", {"AhKh", "QsQd"}, runs);
    timed("TT+,AQs+,AQo+ / QQ+,AKs,AKo / TT", {"TT+,AQs+,AQo+", "QQ+,AKs,AKo", "TT"}, runs);
    timed("A2o / 88 / QJs", {"A2o", "88", "QJs"}, runs);
    timed("AA / QQ / 93o", {"AA", "QQ", "93o"}, runs);
    return 0;
}
