// The seat bots' decision time: nine fair and strong bots (every personality) at a no-limit
// hold'em table of 100 big blinds each, each decision timed on its own. The target:
// 20 ms at the 99th percentile with nine players.
//
//   bench_bots [--hands N] [--seed S]
//   bench_bots --chinese DEALS [--seed S]   the Chinese poker bot against the baseline split
//   bench_bots --leap GAMES [--seed S]      the leap rummy bot against three random players
//   bench_bots --variants HANDS [--seed S]  fair against easy in every variant, fixed limit
#include "chinese_bot.h"
#include "leap_bot.h"
#include "poker/variant.h"
#include "poker_bot.h"
#include "simulate.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace felt;
using namespace felt::bots;

namespace {

// The Chinese poker bot heads-up against the baseline split: its units a deal, with a 95 %
// interval, for a profile.
void chinese_duel(const char* profile_name, Kind kind, long deals, std::uint64_t seed) {
    const chinese::Profile& profile = *chinese::find_profile(profile_name);
    std::vector<Card> pack;
    for (int r = 0; r < 13; ++r)
        for (int s = 0; s < 4; ++s) pack.push_back(Card(Rank(r), Suit(s)));
    Rng rng(seed);
    double sum = 0, squares = 0;
    long surrendered = 0, declared = 0;
    for (long d = 0; d < deals; ++d) {
        sim::shuffle(std::span<Card>(pack), rng);
        const std::span<const Card> mine(pack.data(), 13), theirs(pack.data() + 13, 13);
        const ChineseChoice c = choose_chinese(mine, profile, {}, kind);
        const auto settled = against_baseline(c, theirs, profile, static_cast<int>(d % 2));
        if (!settled) {
            std::fprintf(stderr, "refused: %s\n", settled.error().message.c_str());
            std::exit(1);
        }
        const double u = settled.value();
        sum += u;
        squares += u * u;
        surrendered += c.surrender;
        declared += c.declare.has_value();
    }
    const double mean = sum / static_cast<double>(deals);
    const double sd = std::sqrt(squares / static_cast<double>(deals) - mean * mean);
    std::printf("chinese %-7s %-6s against the baseline, %ld deals: %+.3f units a deal "
                "(95 %% interval %+.3f to %+.3f); %ld declared, %ld surrendered\n",
                profile_name, std::string(kind_name(kind)).c_str(), deals, mean,
                mean - 1.96 * sd / std::sqrt(static_cast<double>(deals)),
                mean + 1.96 * sd / std::sqrt(static_cast<double>(deals)), declared, surrendered);
}

struct Table {
    std::map<std::string, std::vector<double>> times; // decisions by kind, microseconds
    std::array<double, poker::kMaxSeats> net{};       // by seat, in big bets (big blinds)
    std::string failure;
};

double percentile(std::vector<double> t, double p) {
    if (t.empty()) return 0;
    std::sort(t.begin(), t.end());
    return t[std::min(t.size() - 1,
                      static_cast<std::size_t>(p / 100 * static_cast<double>(t.size())))];
}

// `hands` hands at one table of `players`, each seat's bot from `who`, every stack 100 big bets
// (big blinds) at every hand, each decision timed.
template <class Who>
Table play_table(const std::string& variant, const std::string& structure, int players, long hands,
                 std::uint64_t seed, Who who) {
    Table out;
    sim::Options o;
    o.variant = variant;
    o.structure = structure;
    o.players = std::min(players, poker::builtin_variant(variant)->max_seats);
    auto base = sim::table_config(o);
    if (!base) {
        out.failure = base.error().message;
        return out;
    }
    const Chips unit = base->stakes.big_blind > 0 ? base->stakes.big_blind : base->stakes.big_bet;
    Rng rng(seed);
    Watcher watcher;
    std::vector<poker::Event> events;
    for (long h = 0; h < hands; ++h) {
        poker::HandConfig c = base.value();
        c.button = static_cast<int>(h % o.players);
        for (int i = 0; i < o.players; ++i) c.stacks[static_cast<std::size_t>(i)] = unit * 100;
        sim::shuffle(std::span<Card>(c.deck), rng);
        c.reshuffle_seed = rng();
        auto started = poker::start_hand(std::make_shared<const poker::HandConfig>(c));
        if (!started) {
            out.failure = started.error().message;
            return out;
        }
        poker::HandState s = std::move(started).value().state;
        watcher.start(s, started.value().events);
        while (s.phase != poker::Phase::done) {
            const View v = watcher.view(s);
            const Profile p = who(v.legal.seat);
            const auto t0 = std::chrono::steady_clock::now();
            const poker::Action a = decide(v, p, rng);
            const auto t1 = std::chrono::steady_clock::now();
            out.times[std::string(kind_name(p.kind))].push_back(
                std::chrono::duration<double, std::micro>(t1 - t0).count());
            events.clear();
            if (auto err = poker::apply_in_place(s, a, events)) {
                out.failure = std::string(kind_name(p.kind)) + ": " + err->message;
                return out;
            }
            watcher.observe(s, events);
        }
        watcher.finish();
        for (int i = 0; i < o.players; ++i)
            out.net[static_cast<std::size_t>(i)] +=
                static_cast<double>(
                    (s.seats[static_cast<std::size_t>(i)].stack - unit * 100).value()) /
                static_cast<double>(unit.value());
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    long hands = 2000, chinese_deals = 0, leap_games = 0;
    bool variants = false;
    std::uint64_t seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--hands")) hands = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
        if (!std::strcmp(argv[i], "--chinese")) chinese_deals = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--leap")) leap_games = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--variants")) {
            variants = true;
            hands = std::atol(argv[i + 1]);
        }
    }
    if (leap_games > 0) {
        // One bot against one, then three, random players, each kind at each seat in turn.
        for (int players : {2, 4}) {
            std::vector<Kind> kinds(static_cast<std::size_t>(players), Kind::random);
            kinds[0] = Kind::fair;
            const auto r = leap_match(kinds, leap_games, seed);
            if (!r.failure.empty()) {
                std::fprintf(stderr, "refused: %s\n", r.failure.c_str());
                return 1;
            }
            double others = 0, other_score = 0;
            for (std::size_t i = 1; i < kinds.size(); ++i) {
                others += r.wins[i];
                other_score += r.mean_score[i];
            }
            const double n = static_cast<double>(players - 1), g = static_cast<double>(r.games);
            std::printf("leap rummy, %d players, %ld games: the bot wins %.1f %% (a random player "
                        "%.1f %%); mean score %.1f against %.1f\n",
                        players, r.games, 100.0 * r.wins[0] / g, 100.0 * others / n / g,
                        r.mean_score[0], other_score / n);
        }
        return 0;
    }
    if (chinese_deals > 0) {
        for (const char* profile : {"classic", "scoop"})
            for (Kind kind : {Kind::fair, Kind::strong})
                chinese_duel(profile, kind, chinese_deals, seed);
        return 0;
    }
    (void)preflop_rank(0); // the starting hands' table, counted once, before timing
    if (variants) {
        // Every variant, fixed limit, four seats: fair at seats 0 and 2, easy at 1 and 3, each
        // seat 100 big bets at every hand. Fair's net, per fair seat, in big bets a 100 hands.
        std::printf("%-18s %10s %12s %12s\n", "variant", "hands", "fair bb/100", "fair p99 ms");
        for (std::string_view variant : poker::builtin_variant_names()) {
            Table t = play_table(std::string(variant), "fixed-limit", 4, hands, seed, [](int seat) {
                Profile p;
                p.kind = seat % 2 ? Kind::easy : Kind::fair;
                return p;
            });
            if (!t.failure.empty()) {
                std::fprintf(stderr, "%s: refused: %s\n", std::string(variant).c_str(),
                             t.failure.c_str());
                return 1;
            }
            std::printf("%-18s %10ld %+12.1f %12.3f\n", std::string(variant).c_str(), hands,
                        (t.net[0] + t.net[2]) / 2 / static_cast<double>(hands) * 100,
                        percentile(t.times["fair"], 99) / 1000);
        }
        return 0;
    }
    Table t = play_table("holdem", "no-limit", 9, hands, seed, [](int seat) {
        Profile p;
        p.kind = seat % 2 ? Kind::strong : Kind::fair;
        p.personality = personalities()[static_cast<std::size_t>(seat % 4)];
        return p;
    });
    if (!t.failure.empty()) {
        std::fprintf(stderr, "refused: %s\n", t.failure.c_str());
        return 1;
    }
    auto& times = t.times;
    std::printf("%ld hands of nine-handed no-limit hold'em\n", hands);
    for (auto& [kind, t] : times)
        std::printf("%-7s %7zu decisions: p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", kind.c_str(),
                    t.size(), percentile(t, 50) / 1000, percentile(t, 99) / 1000,
                    percentile(t, 100) / 1000);
}
