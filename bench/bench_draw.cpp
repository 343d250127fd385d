// Time of one draw hint (engine/poker/draw_advice.h): every exchange of five random cards,
// counted exactly over the unseen cards, for H random hands (default 200) per ranking. Prints
// the median, the 90th percentile and the slowest, and the one-time cost of the ranking's
// table of shares; asserts nothing (tests do that).
//
//   bench_draw [--hands H]
#include "poker/draw_advice.h"
#include "rankings/ranking.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

int main(int argc, char** argv) {
    using namespace felt;
    long hands = 200;
    for (int i = 1; i + 1 < argc; i += 2)
        if (!std::strcmp(argv[i], "--hands")) hands = std::atol(argv[i + 1]);
    struct Case {
        const char* name;
        Wild wild;
    };
    for (const Case& c : {Case{"standard", Wild::none}, Case{"standard", Wild::joker},
                          Case{"standard", Wild::deuces}, Case{"vertical", Wild::none}}) {
        RankingOptions o;
        o.wild = c.wild;
        const auto r = make_ranking(c.name, o).value();
        std::vector<Card> deck = r->cards();
        std::mt19937_64 rng(2026);
        using clock = std::chrono::steady_clock;
        auto t0 = clock::now();
        (void)poker::hand_share(*r, std::span<const Card>(deck.data(), 5)); // builds the table
        const double table_ms =
            std::chrono::duration<double, std::milli>(clock::now() - t0).count();
        std::vector<double> ms;
        for (long h = 0; h < hands; ++h) {
            std::shuffle(deck.begin(), deck.end(), rng);
            t0 = clock::now();
            auto hint = poker::draw_hint(*r, std::span<const Card>(deck.data(), 5));
            ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
            if (!hint) return 1;
        }
        std::sort(ms.begin(), ms.end());
        std::printf("%-8s wild %-7s %ld hands: median %.1f ms, 90th percentile %.1f ms, slowest "
                    "%.1f ms; the table of shares once: %.0f ms\n",
                    c.name, std::string(wild_name(c.wild)).c_str(), hands, ms[ms.size() / 2],
                    ms[ms.size() * 9 / 10], ms.back(), table_ms);
    }
    return 0;
}
