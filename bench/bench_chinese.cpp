// Speed of Chinese poker settlement, on one thread. Prints figures; asserts nothing.
//
//   bench_chinese [--deals N] [--arrange M]
//
// 1. N random four-player deals (default 100,000), each player's 13 cards split legally at
//    random, generated before timing; then settle() on each under every profile, chips limited
//    and not. Reports the mean time per settlement and the median and 99th percentile over
//    batches of 100.
// 2. M random two-player deals (default 100,000): the first hand auto-arranged (timed one by one:
//    median and 99th percentile), checked legal, and settled under classic against the second
//    hand arranged by the baseline: the mean units per hand is the margin over the baseline.
#include "cards/deck.h"
#include "chinese/chinese.h"
#include "rankings/evaluator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace felt;
using namespace felt::chinese;

int main(int argc, char** argv) {
    long deals = 100'000, arranged = 100'000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--deals")) deals = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--arrange")) arranged = std::atol(argv[i + 1]);
    }
    std::mt19937_64 rng(5);
    std::vector<Card> pack = Deck::standard().cards();
    std::vector<std::vector<Player>> all;
    for (long d = 0; d < deals; ++d) {
        std::shuffle(pack.begin(), pack.end(), rng);
        std::vector<Player> ps;
        for (int i = 0; i < 4; ++i) {
            std::array<Card, 13> cards{};
            std::copy(pack.begin() + 13 * i, pack.begin() + 13 * (i + 1), cards.begin());
            Split s;
            do {
                std::shuffle(cards.begin(), cards.end(), rng);
                std::copy(cards.begin(), cards.begin() + 3, s.front.begin());
                std::copy(cards.begin() + 3, cards.begin() + 8, s.middle.begin());
                std::copy(cards.begin() + 8, cards.end(), s.back.begin());
                if (evaluate<5>(s.back.data()) < evaluate<5>(s.middle.data()))
                    std::swap(s.back, s.middle);
            } while (check_split(s, SplitRules{}));
            Player p;
            p.name = std::string(1, static_cast<char>('A' + i));
            p.stack = Chips(50);
            p.split = s;
            ps.push_back(p);
        }
        all.push_back(ps);
    }
    for (const auto name : profile_names())
        for (bool limit : {false, true}) {
            Options o;
            o.chip_limit = limit;
            const Profile& profile = *find_profile(name);
            std::vector<double> batches;
            long paid = 0;
            const auto t0 = std::chrono::steady_clock::now();
            for (long d = 0; d < deals; d += 100) {
                const auto b0 = std::chrono::steady_clock::now();
                for (long k = d; k < std::min(deals, d + 100); ++k)
                    paid +=
                        static_cast<long>(settle(profile, o, all[static_cast<std::size_t>(k)], 0)
                                              .value()
                                              .payments.size());
                batches.push_back(
                    std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - b0)
                        .count() /
                    100);
            }
            const double total =
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                    .count();
            std::sort(batches.begin(), batches.end());
            std::printf("%-13s chip limit %-3s  mean %5.2f us  median %5.2f us  p99 %5.2f us  (%ld "
                        "payments)\n",
                        std::string(name).c_str(), limit ? "on" : "off",
                        total / static_cast<double>(deals), batches[batches.size() / 2],
                        batches[batches.size() * 99 / 100], paid);
        }

    const Profile& classic = *find_profile("classic");
    (void)win_tables(); // built once, before timing
    std::vector<double> ms;
    double units = 0;
    long illegal = 0, declared = 0;
    for (long d = 0; d < arranged; ++d) {
        std::shuffle(pack.begin(), pack.end(), rng);
        const std::span<const Card> mine(pack.data(), 13), theirs(pack.data() + 13, 13);
        const auto t0 = std::chrono::steady_clock::now();
        const auto a = arrange(mine, classic).value();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
        illegal += check_split(a[0].split, SplitRules{}, mine).has_value();
        declared += a[0].declare.has_value();
        std::vector<Player> ps(2);
        ps[0].name = "auto";
        ps[0].stack = Chips(1000);
        ps[0].split = a[0].split;
        ps[0].declare = a[0].declare;
        ps[1].name = "baseline";
        ps[1].stack = Chips(1000);
        ps[1].split = baseline_split(theirs);
        units += static_cast<double>(settle(classic, Options{}, ps, 0).value().net[0].value());
    }
    if (arranged > 0) {
        std::sort(ms.begin(), ms.end());
        std::printf("\narrange (classic), %ld hands: median %.3f ms, p99 %.3f ms, max %.3f ms; "
                    "illegal %ld; "
                    "specials declared %ld\n",
                    arranged, ms[ms.size() / 2], ms[ms.size() * 99 / 100], ms.back(), illegal,
                    declared);
        std::printf("auto-arranged against the baseline, classic: %+.3f units a hand\n",
                    units / static_cast<double>(arranged));
    }
    return 0;
}
