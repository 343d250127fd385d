// Tracker statistics (engine/stats/poker_stats.h): the rules that trip trackers up, hand by hand,
// then the fast counting against the slow reference (tests/reference_stats.h) on real hand
// histories and on random hands of every flop and stud variant.
#include "paths.h"
#include "poker/phh.h"
#include "reference_stats.h"
#include "simulate.h"
#include "stats/poker_stats.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace felt;
using namespace felt::poker;
using namespace felt::stats;

namespace {

#ifdef FELT_SANITIZE
constexpr std::uint64_t kSeeds = 12; // random hands of each kind: a tenth under the sanitizers
#else
constexpr std::uint64_t kSeeds = 120;
#endif

// The lines of a PHH hand, by player (p1 first).
HandLines lines_of(const std::string& phh) {
    auto r = replay_phh(phh);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message + "\n" + phh));
    return count_replay(r.value());
}

Tally of(const HandLines& h, int player, Stat s) {
    return h.lines.at(static_cast<std::size_t>(player - 1)).tallies[static_cast<std::size_t>(s)];
}

// A six-handed no-limit hold'em hand, blinds 1 and 2, everyone 200 deep, with these actions
// (after the deals, which the hand needs no more of: unknown cards).
std::string holdem(const std::string& actions, int players = 6) {
    std::string deals, antes = "[0", blinds = "[1, 2", stacks = "[200";
    for (int i = 1; i <= players; ++i) deals += "'d dh p" + std::to_string(i) + " ?\??\?', ";
    for (int i = 2; i <= players; ++i) antes += ", 0";
    for (int i = 3; i <= players; ++i) blinds += ", 0";
    for (int i = 2; i <= players; ++i) stacks += ", 200";
    return "variant = 'NT'\nantes = " + antes + "]\nblinds_or_straddles = " + blinds +
           "]\nmin_bet = 2\nstarting_stacks = " + stacks + "]\nactions = [" + deals + actions +
           "]\n";
}

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Fast against slow on one hand's text: every statistic the reference counts, and the net.
// Returns false when the reference cannot judge the hand (it is then not compared).
bool compare(const std::string& phh, const std::string& where) {
    auto ref = test::reference_stats(phh);
    if (!ref) return false;
    auto r = replay_phh(phh);
    REQUIRE_MESSAGE(r.ok(), where);
    // Not judged: a showdown of unknown hands, and recorded winnings the chips disagree with
    // (one handhq hand): the replay reports both.
    if (r.value().undecided || !r.value().winnings_mismatch.empty()) return false;
    const HandLines h = count_replay(r.value());
    REQUIRE(h.lines.size() == ref->size());
    for (const Line& l : h.lines) {
        const std::string player = "p" + std::to_string(l.seat + 1);
        const test::ReferenceLine& want = ref->at(player);
        CAPTURE(where);
        CAPTURE(player);
        for (int i = 0; i < kStats; ++i) {
            const Stat s = static_cast<Stat>(i);
            const auto it = want.stats.find(std::string(stat_name(s)));
            const Tally got = l.tallies[static_cast<std::size_t>(i)];
            if (it == want.stats.end()) {
                // Not counted for this family of games.
                CHECK_MESSAGE(got == Tally{}, stat_name(s));
                continue;
            }
            CHECK_MESSAGE(got.times == it->second.first, stat_name(s), "\n", phh);
            CHECK_MESSAGE(got.opportunities == it->second.second, stat_name(s), "\n", phh);
        }
        const long double net =
            static_cast<long double>(l.net.value()) / static_cast<long double>(r.value().scale);
        CHECK_MESSAGE(std::fabs(static_cast<double>(net - want.net)) < 1e-6, phh);
        CHECK(l.showdown == want.showdown);
    }
    return true;
}

} // namespace

TEST_CASE("stats: VPIP and PFR: a big blind's check is not voluntary, a small blind's "
          "completion is; the walk's big blind has no opportunity") {
    // Folded to the small blind, who completes; the big blind checks; both see a flop.
    const HandLines limp =
        lines_of(holdem("'p3 f', 'p4 f', 'p5 f', 'p6 f', 'p1 cc', 'p2 cc', "
                        "'d db ?\??\??\?', 'p1 cc', 'p2 cc', 'd db ?\?', 'p1 cc', "
                        "'p2 cc', 'd db ?\?', 'p1 cbr 2', 'p2 f'"));
    CHECK(of(limp, 1, Stat::vpip) == Tally{1, 1});
    CHECK(of(limp, 2, Stat::vpip) == Tally{0, 1});
    CHECK(of(limp, 3, Stat::vpip) == Tally{0, 1});
    CHECK(of(limp, 2, Stat::pfr) == Tally{0, 1});
    // A walk: everyone folds to the big blind, who neither had nor took a chance.
    const HandLines walk = lines_of(holdem("'p3 f', 'p4 f', 'p5 f', 'p6 f', 'p1 f'"));
    CHECK(of(walk, 2, Stat::vpip) == Tally{0, 0});
    CHECK(of(walk, 2, Stat::pfr) == Tally{0, 0});
    CHECK(of(walk, 1, Stat::vpip) == Tally{0, 1});
    CHECK(walk.lines[1].net.value() == 1);
    CHECK(walk.lines[0].net.value() == -1);
}

TEST_CASE("stats: 3-bet counts a limp and then a re-raise; only the first raiser folds to a "
          "3-bet, and only that raiser can 4-bet") {
    // p3 limps, p4 raises (the second level), p5 calls, p6 3-bets, the blinds fold, p3 re-raises
    // (a cold 4-bet from the limper, not the first raiser's), p4 folds facing two re-raises.
    const HandLines h = lines_of(holdem(
        "'p3 cc', 'p4 cbr 6', 'p5 cc', 'p6 cbr 20', 'p1 f', 'p2 f', 'p3 cbr 60', 'p4 f', 'p5 f', "
        "'p6 f'"));
    CHECK(of(h, 4, Stat::pfr) == Tally{1, 1});
    CHECK(of(h, 5, Stat::three_bet) == Tally{0, 1});
    CHECK(of(h, 6, Stat::three_bet) == Tally{1, 1});
    CHECK(of(h, 1, Stat::three_bet) == Tally{0, 0}); // facing two raises: past the level
    CHECK(of(h, 4, Stat::fold_to_three_bet) == Tally{0, 0});
    CHECK(of(h, 4, Stat::four_bet) == Tally{0, 0});
    CHECK(of(h, 3, Stat::four_bet) == Tally{0, 0});
    // p3 limps and re-raises p4's raise: a 3-bet.
    const HandLines limp_raise = lines_of(
        holdem("'p3 cc', 'p4 cbr 6', 'p5 f', 'p6 f', 'p1 f', 'p2 f', 'p3 cbr 20', 'p4 f'"));
    CHECK(of(limp_raise, 3, Stat::three_bet) == Tally{1, 1});
    CHECK(of(limp_raise, 4, Stat::fold_to_three_bet) == Tally{1, 1});
    CHECK(of(limp_raise, 4, Stat::four_bet) == Tally{0, 1});
    CHECK(of(limp_raise, 5, Stat::three_bet) == Tally{0, 1});
}

TEST_CASE("stats: a steal is an open raise from the cutoff, the button or the small blind; a "
          "limp before ends it; a blind folds to it only with no caller between") {
    // Folded to the button (p6), who raises; the small blind folds, the big blind calls.
    const HandLines steal = lines_of(holdem("'p3 f', 'p4 f', 'p5 f', 'p6 cbr 6', 'p1 f', 'p2 cc', "
                                            "'d db ?\??\??\?', 'p2 cc', 'p6 cbr 8', "
                                            "'p2 f'"));
    CHECK(of(steal, 5, Stat::steal) == Tally{0, 1}); // the cutoff, folded to, did not
    CHECK(of(steal, 6, Stat::steal) == Tally{1, 1});
    CHECK(of(steal, 3, Stat::steal) == Tally{0, 0});
    CHECK(of(steal, 1, Stat::fold_to_steal) == Tally{1, 1});
    CHECK(of(steal, 2, Stat::fold_to_steal) == Tally{0, 1});
    // The continuation bet on the flop, and the big blind's fold to it.
    CHECK(of(steal, 6, Stat::cbet_flop) == Tally{1, 1});
    CHECK(of(steal, 2, Stat::fold_to_cbet_flop) == Tally{1, 1});
    CHECK(of(steal, 2, Stat::wwsf) == Tally{0, 1});
    CHECK(of(steal, 6, Stat::wwsf) == Tally{1, 1});
    // A limp from the hijack (p4): no steal chance for anyone after it.
    const HandLines limp = lines_of(holdem("'p3 f', 'p4 cc', 'p5 f', 'p6 cbr 8', 'p1 f', 'p2 f', "
                                           "'p4 f'"));
    CHECK(of(limp, 6, Stat::steal) == Tally{0, 0});
    CHECK(of(limp, 1, Stat::fold_to_steal) == Tally{0, 0});
}

TEST_CASE("stats: check-raise, aggression and showdown figures on the flop") {
    // p1 (small blind) checks, p2 bets, p1 raises, p2 calls; turn and river checked through.
    const HandLines h = lines_of(holdem("'p3 f', 'p4 f', 'p5 f', 'p6 f', 'p1 cc', 'p2 cc', "
                                        "'d db AsKsQs', 'p1 cc', 'p2 cbr 4', 'p1 cbr 12', 'p2 cc', "
                                        "'d db 2d', 'p1 cc', 'p2 cc', 'd db 3c', 'p1 cc', 'p2 cc', "
                                        "'p1 sm JsTs', 'p2 sm 2c2h'"));
    CHECK(of(h, 1, Stat::check_raise_flop) == Tally{1, 1});
    CHECK(of(h, 2, Stat::check_raise_flop) == Tally{0, 0});
    CHECK(of(h, 1, Stat::af_flop) == Tally{1, 0});
    CHECK(of(h, 2, Stat::af_flop) == Tally{1, 1});
    CHECK(of(h, 1, Stat::afq_turn) == Tally{0, 1});
    CHECK(of(h, 1, Stat::wtsd) == Tally{1, 1});
    CHECK(of(h, 1, Stat::wsd) == Tally{1, 1});
    CHECK(of(h, 2, Stat::wsd) == Tally{0, 1});
    CHECK(of(h, 3, Stat::wtsd) == Tally{0, 0});
    CHECK(h.lines[0].net.value() == 14);
    CHECK(h.lines[0].showdown);
}

TEST_CASE("stats: the totals: bb/100 and its interval, an empty selection all zeros") {
    Totals none;
    CHECK(none.bb_per_100() == 0);
    CHECK(none.bb_per_100_margin() == 0);
    for (const Tally& t : none.tallies) CHECK(t == Tally{});
    // Two hands at blinds 1-2: +10 and -4 chips: +3 big blinds a hand on average.
    Totals t;
    Line win, lose;
    win.net = Chips(10);
    lose.net = Chips(-4);
    t.add(win, Chips(2));
    t.add(lose, Chips(2));
    CHECK(t.bb_per_100() == doctest::Approx(150.0));
    // The nets in big blinds, 5 and -2: mean 1.5, sample sd 4.95, standard error 3.5.
    CHECK(t.bb_per_100_margin() == doctest::Approx(100 * 1.96 * 3.5));
}

TEST_CASE("stats: the fast counting agrees with the slow reference on real hand histories") {
    long compared = 0, hands = 0;
    std::vector<std::filesystem::path> files;
    for (const char* dir : {"phh", "stats/handhq"})
        for (const auto& entry :
             std::filesystem::recursive_directory_iterator(test::test_file(dir)))
            if (entry.path().extension() == ".phh" || entry.path().extension() == ".phhs")
                files.push_back(entry.path());
    for (const std::filesystem::path& file : files) {
        for (const HandText& hand : split_hands(read_file(file))) {
            if (!replay_phh(hand.text).ok()) continue; // the replay tests judge those
            ++hands;
            compared += compare(hand.text, file.filename().string() + " " + hand.name);
        }
    }
    MESSAGE("hands compared: ", compared, " of ", hands);
    CHECK(hands > 200);
    CHECK(compared > 150);
}

TEST_CASE("stats: the fast counting agrees with the slow reference on random hands of every "
          "flop and stud variant") {
    long compared = 0;
    for (const char* variant : {"holdem", "omaha", "omaha-hilo", "short-deck", "stud", "razz"})
        for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"})
            for (int players : {2, 3, 6}) {
                sim::Options o;
                o.variant = variant;
                o.structure = structure;
                o.players = players;
                o.rake_percent = 5;
                auto base = sim::table_config(o);
                REQUIRE(base.ok());
                const std::uint64_t seeds = kSeeds;
                for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
                    auto config = std::make_shared<HandConfig>(base.value());
                    config->button = static_cast<int>(seed % static_cast<std::uint64_t>(o.players));
                    std::uint64_t x =
                        seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(players);
                    for (int i = 0; i < o.players; ++i) {
                        x ^= x >> 29;
                        x *= 0xBF58476D1CE4E5B9ull;
                        config->stacks[static_cast<std::size_t>(i)] =
                            Chips(20 + static_cast<std::int64_t>(x % 400));
                    }
                    for (std::size_t i = config->deck.size(); i > 1; --i) {
                        x ^= x >> 31;
                        x *= 0x94D049BB133111EBull;
                        std::swap(config->deck[i - 1], config->deck[x % i]);
                    }
                    auto played = sim::play_random_hand(config, seed);
                    REQUIRE(played.ok());
                    const std::string text =
                        to_phh(*config, played.value().events, played.value().state);
                    // The hand as played and as replayed from its history count the same.
                    const HandLines direct = count_hand(*config, played.value().events);
                    Totals a, b;
                    for (const Line& l : direct.lines) a.add(l, direct.unit);
                    const HandLines replayed = lines_of(text);
                    for (const Line& l : replayed.lines) b.add(l, replayed.unit);
                    CHECK(a.tallies == b.tallies);
                    CHECK(a.net == b.net);
                    CHECK(a.net == Chips() - [&] {
                        Chips rake{};
                        for (const Event& e : played.value().events)
                            if (e.type == EventType::rake) rake += e.amount;
                        return rake;
                    }());
                    compared += compare(text, std::string(variant) + " " + structure + " seed " +
                                                  std::to_string(seed));
                }
            }
    MESSAGE("random hands compared: ", compared);
    CHECK(compared > static_cast<long>(kSeeds) * 6 * 3 * 3 / 2);
}
