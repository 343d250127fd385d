// Speed of the standard evaluator, on one thread. Prints figures; asserts nothing (tests do that).
//
//   bench_evaluator [--hands N] [--runs R]
//
// 1. Every 7-card hand (133,784,560) evaluated in enumeration order, with the category histogram:
//    felt::standard_distribution(7), exactly what `felt distribution --cards 7` runs.
// 2. The same enumeration summing values only (the evaluator without the histogram).
// 3. N random 7-card hands (default 100 million), generated before timing, evaluated
//    a) as precombined HandKeys (as OMPEval's "Rand2": Hand objects built before timing), and
//    b) from card arrays, the cards combined inside the timed loop (as OMPEval's "Rand1").
// Each figure is the best of R runs (default 5): this machine is a shared VM whose speed varies
// by tens of percent from run to run, and the best run is the one least disturbed.
// The signature (sum of all values) changes only if the evaluator's answers change.
#include "bench_common.h"
#include "rankings/distribution.h"
#include "rankings/enumerate.h"
#include "rankings/evaluator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace felt;
using bench::best_seconds;

int main(int argc, char** argv) {
    long hands = 100'000'000;
    int runs = 5;
    bench::parse_options(argc, argv, hands, runs);

    const std::size_t hot = sizeof(tables::kCardKey) + sizeof(tables::kRowOffset) +
                            sizeof(tables::kRankTable) + sizeof(tables::kFlushTable);
    std::printf("lookup tables on the evaluation path: %zu bytes (%.1f KiB): rank %zu, row offsets "
                "%zu, flush %zu, card keys %zu\n",
                hot, hot / 1024.0, sizeof(tables::kRankTable), sizeof(tables::kRowOffset),
                sizeof(tables::kFlushTable), sizeof(tables::kCardKey));
    std::printf("class descriptions (value -> written-out hand, off the hot path): %zu bytes\n\n",
                sizeof(tables::kClassKey));

    StandardDistribution d;
    const double enum_hist = best_seconds(runs, [&] { d = standard_distribution(7); });
    std::printf("all 7-card hands with category histogram: %.3f s best of %d (%.0f M hands/s)\n",
                enum_hist, runs, d.total / enum_hist / 1e6);
    for (int c = kCategoryCount - 1; c >= 0; --c)
        std::printf("  %-16s %12llu\n",
                    std::string(category_name(static_cast<Category>(c))).c_str(),
                    static_cast<unsigned long long>(d.categories[static_cast<std::size_t>(c)]));

    std::uint64_t enum_sum = 0;
    const double enum_only = best_seconds(runs, [&] {
        std::uint64_t sum = 0;
        for_each_hand<7>([&sum](const HandKey& h) { sum += evaluate(h).raw(); });
        enum_sum = sum;
    });
    std::printf("all 7-card hands, evaluation only:        %.3f s best of %d (%.0f M hands/s), "
                "signature %llu\n\n",
                enum_only, runs, d.total / enum_only / 1e6,
                static_cast<unsigned long long>(enum_sum));

    const bench::RandomHands random = bench::random_hands(hands);
    const auto& cards = random.cards;
    const auto& keys = random.keys;

    std::uint64_t sum_keys = 0, sum_cards = 0;
    const double t_keys = best_seconds(runs, [&] {
        std::uint64_t sum = 0;
        for (const HandKey& h : keys) sum += evaluate(h).raw();
        sum_keys = sum;
    });
    const double t_cards = best_seconds(runs, [&] {
        std::uint64_t sum = 0;
        for (const auto& c : cards) sum += evaluate<7>(c.data()).raw();
        sum_cards = sum;
    });
    std::printf(
        "random hands, precombined HandKey:  %.0f M evaluations/s (%.3f s), signature %llu\n",
        hands / t_keys / 1e6, t_keys, static_cast<unsigned long long>(sum_keys));
    std::printf(
        "random hands, from 7-card arrays:   %.0f M evaluations/s (%.3f s), signature %llu\n",
        hands / t_cards / 1e6, t_cards, static_cast<unsigned long long>(sum_cards));
    return sum_keys == sum_cards ? 0 : 1;
}
