// Speed of the open-face Fantasyland solver, on one thread. Prints figures; asserts nothing.
//
//   bench_openface [--hands N] [--against K]
//
// For each size of 14 to 17 cards: N random hands of the pack (default 1,000; std::mt19937_64,
// seed 2026), drawn before timing, each solved alone (royalties and the stay value) and against K
// opponents' random rows (default 1; 0 skips), each solve timed one by one: median, 99th
// percentile and the slowest.
#include "cards/deck.h"
#include "openface/fantasyland.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace felt;
using namespace felt::openface;

namespace {

struct Case {
    std::vector<Card> hand;
    std::vector<Split> against;
};

void report(const char* what, int n, std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) {
        return ms[static_cast<std::size_t>(q * double(ms.size() - 1))];
    };
    std::printf("%-8s %2d cards  %5zu hands  median %8.3f ms  p99 %8.3f ms  max %8.3f ms\n", what,
                n, ms.size(), at(0.5), at(0.99), ms.back());
}

} // namespace

int main(int argc, char** argv) {
    long hands = 1'000;
    int against = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--hands")) hands = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--against")) against = std::atoi(argv[i + 1]);
    }
    std::mt19937_64 rng(2026);
    auto pack = Deck::standard().cards();
    for (int n = 14; n <= 17; ++n) {
        std::vector<Case> cases;
        for (long h = 0; h < hands; ++h) {
            std::shuffle(pack.begin(), pack.end(), rng);
            Case c;
            c.hand.assign(pack.begin(), pack.begin() + n);
            for (int j = 0; j < against; ++j) {
                const Card* p = pack.data() + n + 13 * j;
                Split s;
                std::copy(p, p + 3, s.front.begin());
                std::copy(p + 3, p + 8, s.middle.begin());
                std::copy(p + 8, p + 13, s.back.begin());
                c.against.push_back(s);
            }
            cases.push_back(std::move(c));
        }
        for (bool alone : {true, false}) {
            if (!alone && against == 0) continue;
            std::vector<double> ms;
            long stays = 0, points = 0;
            for (const Case& c : cases) {
                const auto t0 = std::chrono::steady_clock::now();
                const auto s = solve_fantasyland(c.hand, Stay::standard,
                                                 alone ? std::span<const Split>() : c.against);
                ms.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count());
                if (!s.ok()) {
                    std::fprintf(stderr, "%s\n", s.error().message.c_str());
                    return 1;
                }
                stays += s->stays;
                points += s->points;
            }
            report(alone ? "alone" : "against", n, ms);
            std::printf("         stays %.1f %%, mean points %.2f\n",
                        100.0 * double(stays) / double(hands), double(points) / double(hands));
        }
    }
}
