// Speed of the open-face Fantasyland solver, on one thread. Prints figures; asserts nothing.
//
//   bench_openface [--hands N] [--against K]
//   bench_openface --duel A B [--hands N] [--seed S]
//
// For each size of 14 to 17 cards: N random hands of the pack (default 1,000; std::mt19937_64,
// seed 2026), drawn before timing, each solved alone (royalties and the stay value) and against K
// opponents' random rows (default 1; 0 skips), each solve timed one by one: median, 99th
// percentile and the slowest.
//
// --duel: policy A (random, greedy, rollouts) against B heads-up at Pineapple for N hands
// (default 10,000) on two threads, Fantasyland carried from hand to hand and the button held
// while anyone is in it, as at a table; each deck is played twice, the seats swapped, so the
// cards even out. Prints A's points a hand with its standard error, each side's fouls and
// Fantasyland hands, and the time of A's decisions (median, p99, max).
#include "cards/deck.h"
#include "openface/fantasyland.h"
#include "openface_bot.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
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
    std::printf("%-8s %2d cards  %5zu times  median %8.3f ms  p99 %8.3f ms  max %8.3f ms\n", what,
                n, ms.size(), at(0.5), at(0.99), ms.back());
}

} // namespace

bots::OpenFacePolicy policy_of(const char* name) {
    const std::string n = name;
    if (n == "random") return bots::OpenFacePolicy::random;
    if (n == "greedy") return bots::OpenFacePolicy::greedy;
    if (n == "rollouts") return bots::OpenFacePolicy::rollouts;
    std::fprintf(stderr, "no policy %s (random, greedy, rollouts)\n", name);
    std::exit(2);
}

struct Tally {
    double points = 0, squares = 0;
    long hands = 0, fouls[2] = {0, 0}, fantasy[2] = {0, 0};
    std::vector<double> ms; // A's decisions
};

// Two players, policies[0] and policies[1], `hands` hands in a row from `rng`: Fantasyland
// carried, the button held while anyone is in it. Points for player 0.
void match(const bots::OpenFacePolicy (&policies)[2], long hands, std::mt19937_64& rng, Tally& t) {
    auto pack = Deck::standard().cards();
    Options o;
    std::array<int, 2> fantasy{};
    int button = 0; // the player dealt last
    for (long h = 0; h < hands; ++h) {
        std::shuffle(pack.begin(), pack.end(), rng);
        // Turn order from the button's left: player (button + 1) % 2 first.
        const int first = (button + 1) % 2;
        const std::vector<int> fl{fantasy[static_cast<std::size_t>(first)],
                                  fantasy[static_cast<std::size_t>(1 - first)]};
        auto started = Hand::start(o, fl, pack);
        if (!started) std::abort();
        Hand hand = *started;
        while (!hand.finished()) {
            const int p = hand.to_act();
            const int who = p == 0 ? first : 1 - first;
            bots::OpenFaceView v;
            v.board = hand.board(p);
            v.pending.assign(hand.pending(p).begin(), hand.pending(p).end());
            v.discards = hand.discards_due(p);
            v.fantasyland = hand.fantasyland(p) > 0;
            v.streets_left = v.fantasyland ? 0 : hand.streets() - 1 - hand.street();
            v.seen.assign(hand.discards(p).begin(), hand.discards(p).end());
            const Board& other = hand.board(1 - p);
            for (Row r : {Row::front, Row::middle, Row::back})
                v.seen.insert(v.seen.end(), other.row(r).begin(), other.row(r).end());
            if (v.fantasyland && hand.board(1 - p).full())
                v.against.push_back(hand.board(1 - p).split());
            const auto t0 = std::chrono::steady_clock::now();
            const Placement pl = bots::place_openface(v, policies[who], rng());
            if (who == 0)
                t.ms.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count());
            if (auto e = hand.place(p, pl)) {
                std::fprintf(stderr, "illegal placement: %s\n", e->message.c_str());
                std::abort();
            }
        }
        std::vector<Player> players(2);
        for (int p = 0; p < 2; ++p) {
            const int who = p == 0 ? first : 1 - first;
            players[static_cast<std::size_t>(who)].name = std::string(1, who ? 'b' : 'a');
            players[static_cast<std::size_t>(who)].split = hand.board(p).split();
            players[static_cast<std::size_t>(who)].fantasyland =
                fantasy[static_cast<std::size_t>(who)];
        }
        const auto st = settle(o, players, button);
        if (!st) std::abort();
        const double pts = st->points[0];
        t.points += pts;
        t.squares += pts * pts;
        ++t.hands;
        for (std::size_t w = 0; w < 2; ++w) {
            t.fouls[w] += st->fouled[w];
            t.fantasy[w] += fantasy[w] > 0;
            fantasy[w] = st->fantasyland[w];
        }
        if (fantasy[0] == 0 && fantasy[1] == 0) button = 1 - button;
    }
}

int duel(const char* a, const char* b, long hands, std::uint64_t seed) {
    const bots::OpenFacePolicy ab[2] = {policy_of(a), policy_of(b)};
    const bots::OpenFacePolicy ba[2] = {policy_of(b), policy_of(a)};
    Tally t[2];
    std::mutex m;
    auto run = [&](int k) {
        // The same decks for both orders: each thread plays A first, then with the seats swapped.
        std::mt19937_64 rng1(seed + static_cast<std::uint64_t>(k)), rng2 = rng1;
        Tally mine, swapped;
        match(ab, hands / 4, rng1, mine);
        match(ba, hands / 4, rng2, swapped);
        std::lock_guard lock(m);
        t[0].points += mine.points - swapped.points;
        t[0].squares += mine.squares + swapped.squares;
        t[0].hands += mine.hands + swapped.hands;
        t[0].fouls[0] += mine.fouls[0] + swapped.fouls[1];
        t[0].fouls[1] += mine.fouls[1] + swapped.fouls[0];
        t[0].fantasy[0] += mine.fantasy[0] + swapped.fantasy[1];
        t[0].fantasy[1] += mine.fantasy[1] + swapped.fantasy[0];
        t[0].ms.insert(t[0].ms.end(), mine.ms.begin(), mine.ms.end());
    };
    std::thread th(run, 1);
    run(0);
    th.join();
    const double n = static_cast<double>(t[0].hands);
    const double mean = t[0].points / n;
    const double sd = std::sqrt(std::max(0.0, t[0].squares / n - mean * mean));
    std::printf("%s against %s: %ld hands, %+.3f points a hand (standard error %.3f)\n", a, b,
                t[0].hands, mean, sd / std::sqrt(n));
    std::printf("  fouls: %s %.1f %%, %s %.1f %%; Fantasyland hands: %s %.1f %%, %s %.1f %%\n", a,
                100.0 * double(t[0].fouls[0]) / n, b, 100.0 * double(t[0].fouls[1]) / n, a,
                100.0 * double(t[0].fantasy[0]) / n, b, 100.0 * double(t[0].fantasy[1]) / n);
    report(a, 0, t[0].ms);
    return 0;
}

int main(int argc, char** argv) {
    if (argc >= 4 && !std::strcmp(argv[1], "--duel")) {
        long hands = 10'000;
        std::uint64_t seed = 2026;
        for (int i = 4; i + 1 < argc; i += 2) {
            if (!std::strcmp(argv[i], "--hands")) hands = std::atol(argv[i + 1]);
            if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
        }
        return duel(argv[2], argv[3], hands, seed);
    }
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
