// Speed of the other rankings, on one thread. Prints figures; asserts nothing (tests do that).
//
//   bench_rankings [--hands N] [--runs R]
//
// 1. Vertical melds, fast path (engine/rankings/vertical.h): N random 7-card hands of the 52-card
// pack
//    (default 100 million), generated before timing, judged a) as precombined HandKeys and
//    b) from 7-card arrays; then every 7-card hand in enumeration order.
// 2. Vertical melds through the Ranking interface (checked, any deck): 1 million random 7-card
//    hands, the showdown path.
// 3. Distribution tables: every vertical, horizontal and flush table of 1 to 8 cards from decks
//    of 1 to 20 ranks and 1 to 8 copies; the slowest one and the sum. Then Poke'm's table.
// Each figure is the best of R runs (default 5); see bench_evaluator.cpp for why.
#include "bench_common.h"
#include "rankings/enumerate.h"
#include "rankings/meld_distribution.h"
#include "rankings/pokem.h"
#include "rankings/ranking.h"
#include "rankings/vertical.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace felt;
using bench::best_seconds;

int main(int argc, char** argv) {
    long hands = 100'000'000;
    int runs = 5;
    bench::parse_options(argc, argv, hands, runs);
    std::printf("vertical fast path tables: row offsets %zu bytes, vertical table %zu bytes\n",
                sizeof(tables::kRowOffset), sizeof(tables::kVerticalTable));

    const bench::RandomHands random = bench::random_hands(hands);
    const auto& cards = random.cards;
    const auto& keys = random.keys;
    std::uint64_t sum_keys = 0, sum_cards = 0, sum_enum = 0;
    const double t_keys = best_seconds(runs, [&] {
        std::uint64_t sum = 0;
        for (const HandKey& h : keys) sum += evaluate_vertical(h).raw();
        sum_keys = sum;
    });
    const double t_cards = best_seconds(runs, [&] {
        std::uint64_t sum = 0;
        for (const auto& c : cards) sum += evaluate_vertical<7>(c.data()).raw();
        sum_cards = sum;
    });
    const double t_enum = best_seconds(runs, [&] {
        std::uint64_t sum = 0;
        for_each_hand<7>([&sum](const HandKey& h) { sum += evaluate_vertical(h).raw(); });
        sum_enum = sum;
    });
    std::printf("vertical, random 7-card hands, precombined HandKey: %.0f M/s (%.3f s), "
                "signature %llu\n",
                hands / t_keys / 1e6, t_keys, static_cast<unsigned long long>(sum_keys));
    std::printf("vertical, random 7-card hands, from card arrays:    %.0f M/s (%.3f s), "
                "signature %llu\n",
                hands / t_cards / 1e6, t_cards, static_cast<unsigned long long>(sum_cards));
    std::printf("vertical, all 133,784,560 7-card hands:             %.3f s (%.0f M/s), "
                "signature %llu\n",
                t_enum, 133'784'560 / t_enum / 1e6, static_cast<unsigned long long>(sum_enum));

    const auto ranking = make_ranking("vertical").value();
    const std::size_t checked = std::min<std::size_t>(1'000'000, cards.size());
    std::uint64_t sig = 0;
    const double t_checked = best_seconds(runs, [&] {
        std::uint64_t s = 0;
        for (std::size_t i = 0; i < checked; ++i)
            s += ranking->judge(std::span<const Card>(cards[i].data(), 7)).value().strength[0];
        sig = s;
    });
    std::printf("vertical through Ranking::judge (checked, any deck): %.1f M/s, signature %llu\n\n",
                static_cast<double>(checked) / t_checked / 1e6,
                static_cast<unsigned long long>(sig));

    for (const char* name : {"vertical", "horizontal", "flush"}) {
        double slowest = 0, total = 0;
        std::string which;
        for (int ranks = 1; ranks <= 20; ++ranks)
            for (int copies = 1; copies <= 8; ++copies)
                for (int n = 1; n <= std::min(8, ranks * copies); ++n) {
                    const double t = best_seconds(runs, [&] {
                        if (!meld_distribution(name, ranks, copies, n)) std::abort();
                    });
                    total += t;
                    if (t > slowest) {
                        slowest = t;
                        which = std::to_string(ranks) + " ranks x " + std::to_string(copies) +
                                ", " + std::to_string(n) + " cards";
                    }
                }
        std::printf("%-10s tables, 1-20 ranks x 1-8 copies x 1-8 cards: slowest %.5f s (%s), all "
                    "%.3f s\n",
                    name, slowest, which.c_str(), total);
    }
    const double t_pokem = best_seconds(runs, [] { (void)pokem_distribution(false); });
    std::printf("pokem table, all 234,531,275 hands:  %.3f s\n", t_pokem);
    return sum_keys == sum_cards ? 0 : 1;
}
