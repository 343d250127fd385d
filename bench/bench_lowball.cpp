// Speed of the mixed games' evaluators, on one thread: hands judged a second. Prints figures;
// asserts nothing (tests do that).
//
//   bench_lowball [--hands N] [--runs R]
//
// N random hands of each kind (default 2 million), dealt before timing (std::mt19937_64, seed
// 2026); each figure the best of R runs (default 5):
//   Omaha high: the best of 4 hole cards and 5 board cards, two and three (60 fives), through
//     Ranking::omaha_strength as showdowns use it;
//   Omaha eight-or-better low: the same 60 fives, eight_or_better_low;
//   razz: best_ace_to_five_low of 7 cards; deuce-to-seven: 5 cards; badugi: 4 cards;
//   short deck: best_short_deck_value of 7 cards of the 36.
// docs/benchmarks.md gives PokerKit's figures for the same hands, and how they were taken.
#include "bench_common.h"
#include "rankings/best_five.h"
#include "rankings/lowball.h"
#include "rankings/ranking.h"
#include "rankings/short_deck.h"

#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

using namespace felt;
using bench::best_seconds;

namespace {

// `count` hands of `size` different cards of `pack`, one after another in one vector.
std::vector<Card> deal(const std::vector<Card>& pack, long count, int size, std::mt19937_64& rng) {
    std::vector<Card> out;
    out.reserve(static_cast<std::size_t>(count * size));
    for (long h = 0; h < count; ++h) {
        std::uint64_t used = 0;
        for (int j = 0; j < size;) {
            const auto k = static_cast<unsigned>(rng() % pack.size());
            if (used >> k & 1) continue;
            used |= std::uint64_t{1} << k;
            out.push_back(pack[k]);
            ++j;
        }
    }
    return out;
}

template <class F>
void report(const char* name, long hands, int runs, F&& judge_all) {
    std::uint64_t sum = 0;
    const double s = best_seconds(runs, [&] { sum = judge_all(); });
    std::printf("  %-48s %10.0f hands/s  (checksum %llu)\n", name, static_cast<double>(hands) / s,
                static_cast<unsigned long long>(sum));
}

} // namespace

int main(int argc, char** argv) {
    long hands = 2'000'000;
    int runs = 5;
    bench::parse_options(argc, argv, hands, runs);
    std::mt19937_64 rng(2026);
    const auto standard = make_ranking("standard").value();
    const std::vector<Card> pack = standard->cards();
    const std::vector<Card> short_pack = make_ranking("short-deck").value()->cards();
    const auto omaha = deal(pack, hands, 9, rng);
    const auto seven = deal(pack, hands, 7, rng);
    const auto five = deal(pack, hands, 5, rng);
    const auto four = deal(pack, hands, 4, rng);
    const auto short_seven = deal(short_pack, hands, 7, rng);
    const auto n = static_cast<std::size_t>(hands);
    std::printf("%ld random hands of each kind, best of %d runs:\n", hands, runs);

    report("Omaha high, 4 hole + 5 board", hands, runs, [&] {
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::span<const Card> h(&omaha[9 * i], 9);
            sum += standard->omaha_strength(h.first(4), h.subspan(4))[1];
        }
        return sum;
    });
    report("Omaha eight-or-better low, 4 hole + 5 board", hands, runs, [&] {
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::span<const Card> h(&omaha[9 * i], 9);
            LowValue best;
            for_each_omaha_five(h.first(4), h.subspan(4), [&](std::span<const Card, 5> f) {
                best = std::max(best, eight_or_better_low(f));
            });
            sum += best.raw();
        }
        return sum;
    });
    report("razz: ace-to-five, best of 7", hands, runs, [&] {
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < n; ++i)
            sum += best_ace_to_five_low(std::span<const Card>(&seven[7 * i], 7)).raw();
        return sum;
    });
    report("deuce-to-seven, 5 cards", hands, runs, [&] {
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < n; ++i)
            sum += deuce_to_seven_low(std::span<const Card, 5>(&five[5 * i], 5)).raw();
        return sum;
    });
    report("badugi, 4 cards", hands, runs, [&] {
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < n; ++i)
            sum += badugi(std::span<const Card>(&four[4 * i], 4)).raw();
        return sum;
    });
    report("short deck, best of 7 of 36 cards", hands, runs, [&] {
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < n; ++i)
            sum += best_short_deck_value(std::span<const Card>(&short_seven[7 * i], 7)).raw();
        return sum;
    });
    return 0;
}
