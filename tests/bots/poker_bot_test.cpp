// The seat bots (bots/): legal play in every variant, a view that holds only what the seat may
// see, starting hands and equity against outside references, and their strength in duels.
#include "chinese_bot.h"
#include "duel.h"
#include "holdem_equity.h"
#include "leap_bot.h"
#include "odds/equity.h"
#include "poker/variant.h"
#include "rankings/evaluator.h"
#include "simulate.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

using namespace felt;
using namespace felt::bots;

namespace {

#ifdef FELT_SANITIZE
constexpr int kScale = 10; // a tenth under the sanitizers
// Strength is a matter of sample size: the sanitizers' tenth checks the play, not who wins.
constexpr bool kStrength = false;
#else
constexpr int kScale = 1;
constexpr bool kStrength = true;
#endif

Card card(const char* text) {
    const std::string ranks = "23456789TJQKA", suits = "shdc";
    return Card(Rank(static_cast<int>(ranks.find(text[0]))),
                Suit(static_cast<int>(suits.find(text[1]))));
}

std::vector<Card> cards(const std::string& text) {
    std::vector<Card> out;
    for (std::size_t i = 0; i + 1 < text.size(); i += 2) out.push_back(card(text.c_str() + i));
    return out;
}

} // namespace

TEST_CASE("bots: every kind plays every variant and structure legally, and sees only its own "
          "hidden cards") {
    const int hands = 24 / (kScale > 1 ? 8 : 1);
    long decisions = 0;
    for (std::string_view variant : poker::builtin_variant_names()) {
        for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"}) {
            CAPTURE(variant);
            CAPTURE(structure);
            sim::Options o;
            o.variant = std::string(variant);
            o.structure = structure;
            o.players = std::min(6, poker::builtin_variant(variant)->max_seats);
            auto base = sim::table_config(o);
            REQUIRE(base.ok());
            Rng rng(std::hash<std::string_view>{}(variant) ^ std::hash<std::string>{}(structure));
            Watcher watcher;
            for (int h = 0; h < hands; ++h) {
                poker::HandConfig c = base.value();
                c.button = h % o.players;
                for (int i = 0; i < o.players; ++i)
                    c.stacks[static_cast<std::size_t>(i)] =
                        Chips(static_cast<std::int64_t>(20 + rng.below(400)));
                sim::shuffle(std::span<Card>(c.deck), rng);
                c.reshuffle_seed = rng();
                Chips before{};
                for (Chips s : c.stacks) before += s;
                auto started = poker::start_hand(std::make_shared<const poker::HandConfig>(c));
                REQUIRE(started.ok());
                poker::HandState s = std::move(started).value().state;
                watcher.start(s, started.value().events);
                std::vector<poker::Event> events;
                for (int guard = 0; s.phase != poker::Phase::done && guard < 2000; ++guard) {
                    const View v = watcher.view(s);
                    const int seat = v.legal.seat;
                    // The view: the seat's own cards, and of the others only those face up.
                    const auto& mine = s.seats[static_cast<std::size_t>(seat)];
                    CHECK(v.cards ==
                          std::vector<Card>(mine.cards.begin(), mine.cards.begin() + mine.count));
                    for (const SeatView& sv : v.seats) {
                        const auto& p = s.seats[static_cast<std::size_t>(sv.seat)];
                        std::vector<Card> up;
                        for (int k = 0; k < p.count; ++k)
                            if (p.up >> k & 1) up.push_back(p.cards[static_cast<std::size_t>(k)]);
                        CHECK(sv.up == up);
                    }
                    const Kind kind = all_kinds()[static_cast<std::size_t>(
                        (seat + h) % static_cast<int>(all_kinds().size()))];
                    Profile p;
                    p.kind = kind;
                    p.personality = personalities()[static_cast<std::size_t>(seat % 4)];
                    const poker::Action a = decide(v, p, rng);
                    events.clear();
                    const auto err = poker::apply_in_place(s, a, events);
                    CHECK_MESSAGE(!err, kind_name(kind), ": ", (err ? err->message : ""));
                    if (err) break;
                    watcher.observe(s, events);
                    ++decisions;
                }
                REQUIRE(s.phase == poker::Phase::done);
                watcher.finish();
                Chips after = s.raked;
                for (const auto& p : s.seats) after += p.stack;
                CHECK(after == before);
            }
        }
    }
    MESSAGE(decisions << " decisions");
}

TEST_CASE("bots: starting hands rank as their equity against a random hand orders them") {
    // Published heads-up equities against one random hand: aces 85.2 %, kings 82.4 %, queens
    // 79.9 %, ace-king suited 67.0 % and offsuit 65.3 %, seven-deuce offsuit 34.6 %, three-deuce
    // offsuit 32.3 % (the lowest).
    CHECK(preflop_rank(card("As"), card("Ah")) < preflop_rank(card("Ks"), card("Kh")));
    CHECK(preflop_rank(card("Ks"), card("Kh")) < preflop_rank(card("Qs"), card("Qh")));
    CHECK(preflop_rank(card("Qs"), card("Qh")) < preflop_rank(card("As"), card("Ks")));
    CHECK(preflop_rank(card("As"), card("Ks")) < preflop_rank(card("As"), card("Kh")));
    CHECK(preflop_rank(card("As"), card("Ah")) < 0.005);
    double worst = 0;
    int worst_combo = -1;
    for (int c = 0; c < kCombos; ++c)
        if (preflop_rank(c) > worst) worst = preflop_rank(c), worst_combo = c;
    const auto w = combo_cards(worst_combo);
    CHECK(w[0].suit() != w[1].suit());
    CHECK(std::set{w[0].rank().index(), w[1].rank().index()} == std::set{0, 1}); // three-deuce
    CHECK(preflop_rank(card("7s"), card("2h")) > 0.95);
    // Ranks are shares of the 1,326 hands: half of them rank in the better half.
    int better = 0;
    for (int c = 0; c < kCombos; ++c) better += preflop_rank(c) < 0.5;
    CHECK(std::abs(better - kCombos / 2) < 20);
    // The Chen formula's own examples: aces 20, kings 16, deuces 5, ace-king suited 12,
    // jack-ten suited 9, seven-deuce offsuit -1.
    CHECK(chen_score(card("As"), card("Ah")) == 20);
    CHECK(chen_score(card("Ks"), card("Kh")) == 16);
    CHECK(chen_score(card("2s"), card("2h")) == 5);
    CHECK(chen_score(card("As"), card("Ks")) == 12);
    CHECK(chen_score(card("Js"), card("Ts")) == 9);
    CHECK(chen_score(card("7s"), card("2h")) == -1);
}

TEST_CASE("bots: sampled equity against ranges agrees with the exact calculator") {
    struct Case {
        const char* hole;
        const char* board;
        std::vector<std::string> ranges;
    };
    const std::vector<Case> cases = {
        {"AhKh", "", {"QQ"}},
        {"AhKh", "Qh7c2s", {"QQ+,AK"}},
        {"9s8s", "7s6d2c", {"random"}},
        {"TcTd", "Ah9c4d5s", {"AJ+", "random"}},
        {"Jh9h", "Ts8h2c", {"22+,A2s+,KTo+", "random"}},
    };
    const int samples = 40'000 / kScale;
    Rng rng(7);
    for (const Case& c : cases) {
        CAPTURE(c.hole);
        CAPTURE(c.board);
        std::vector<std::string> hands{c.hole};
        hands.insert(hands.end(), c.ranges.begin(), c.ranges.end());
        auto made = odds::make_query(odds::Game::holdem, hands, c.board, "");
        REQUIRE(made.ok());
        odds::Query q = std::move(made).value();
        q.exact = true;
        const auto exact = odds::equity(q);
        REQUIRE(exact.ok());
        std::vector<Range> ranges;
        for (std::size_t i = 1; i < q.players.size(); ++i) {
            Range r;
            for (const odds::Combo& k : q.players[i].range)
                r.weight[static_cast<std::size_t>(combo_index(k.high, k.low))] =
                    static_cast<float>(k.weight);
            ranges.push_back(r);
        }
        const double sampled = holdem_equity(cards(c.hole), cards(c.board), ranges, samples, rng);
        const double expected = exact.value().equity[0] / 100;
        const double se = std::sqrt(expected * (1 - expected) / samples);
        CHECK(std::abs(sampled - expected) < 4 * se + 0.002);
    }
}

TEST_CASE("bots: a range narrowed to its strongest share keeps the hands that beat the rest") {
    const std::vector<Card> board = cards("Kd8s3c");
    Range r = Range::top(1.0);
    r.remove(board);
    const double before = r.total();
    r.keep_strongest(board, 0.1);
    // Kept: weight 1; the rest a little. The kept hands' weight is a tenth of the range's.
    double kept = 0;
    HandValue weakest_kept(0xFFFF), strongest_dropped(0);
    for (int c = 0; c < kCombos; ++c) {
        const auto h = combo_cards(c);
        if (r.weight[static_cast<std::size_t>(c)] <= 0) continue;
        std::vector<Card> seven = board;
        seven.push_back(h[0]);
        seven.push_back(h[1]);
        const HandValue v = evaluate(seven);
        if (r.weight[static_cast<std::size_t>(c)] == 1) {
            kept += 1;
            weakest_kept = std::min(weakest_kept, v);
        } else {
            strongest_dropped = std::max(strongest_dropped, v);
        }
    }
    CHECK(std::abs(kept / before - 0.1) < 0.02);
    CHECK(strongest_dropped <= weakest_kept);
}

TEST_CASE("bots: duels: each deal twice cancels the cards' luck; fair beats the fixed kinds and "
          "random by over 200 bb/100, and strong beats fair") {
    DuelOptions o;
    o.seed = 11;
    o.threads = 2;
    // A bot against itself: every deal's two plays cancel exactly, whatever it draws.
    o.a.kind = o.b.kind = Kind::random;
    o.deals = 200;
    DuelReport r = duel(o);
    CHECK(r.failure.empty());
    CHECK(r.bb_per_100 == 0);
    CHECK(r.ci_low == 0);
    // Swapping A and B negates the result, deal by deal: the same seats draw the same numbers.
    o.a.kind = Kind::strong;
    o.b.kind = Kind::fair;
    o.deals = 400 / kScale;
    const DuelReport ab = duel(o);
    std::swap(o.a, o.b);
    const DuelReport ba = duel(o);
    CHECK(ab.bb_per_100 == doctest::Approx(-ba.bb_per_100));
    CHECK(ab.a.vpip == ba.b.vpip);

    o.a.kind = Kind::fair;
    for (Kind b : {Kind::random, Kind::calling_station, Kind::maniac, Kind::nit, Kind::shove,
                   Kind::baseline}) {
        CAPTURE(kind_name(b));
        o.b.kind = b;
        o.deals = 3000 / kScale;
        r = duel(o);
        CHECK(r.failure.empty());
        if (!kStrength) continue;
        CHECK(r.ci_low > 0);
        if (b == Kind::random) CHECK(r.bb_per_100 > 200);
    }
    o.a.kind = Kind::strong;
    o.b.kind = Kind::fair;
    o.deals = 6000 / kScale;
    r = duel(o);
    CHECK(r.failure.empty());
    if (kStrength) CHECK(r.ci_low > 0);
}

TEST_CASE("bots: the Chinese poker bot arranges legally, declares what its cards hold, surrenders "
          "only as strong in the scoop profile, and beats the baseline split") {
    const int deals = 300 / kScale;
    std::vector<Card> pack;
    for (int r = 0; r < 13; ++r)
        for (int s = 0; s < 4; ++s) pack.push_back(Card(Rank(r), Suit(s)));
    for (const char* name : {"classic", "scoop"}) {
        const std::string profile_name = name;
        CAPTURE(profile_name);
        const chinese::Profile& profile = *chinese::find_profile(name);
        for (Kind kind : {Kind::easy, Kind::fair, Kind::strong}) {
            CAPTURE(kind_name(kind));
            Rng rng(5);
            double units = 0;
            int surrendered = 0;
            for (int d = 0; d < deals; ++d) {
                sim::shuffle(std::span<Card>(pack), rng);
                const std::span<const Card> mine(pack.data(), 13), theirs(pack.data() + 13, 13);
                const ChineseChoice c = choose_chinese(mine, profile, {}, kind);
                CHECK(!chinese::check_split(c.split, {}, mine));
                if (kind == Kind::easy) {
                    const chinese::Split b = chinese::baseline_split(mine);
                    CHECK((c.split.back == b.back && c.split.middle == b.middle));
                }
                surrendered += c.surrender;
                // settle() refuses a special hand the cards do not hold.
                const auto settled = against_baseline(c, theirs, profile, d % 2);
                REQUIRE_MESSAGE(settled.ok(), (settled ? "" : settled.error().message));
                units += settled.value();
            }
            if (kind != Kind::strong || std::string(name) != "scoop") CHECK(surrendered == 0);
            if (kind != Kind::easy && kStrength) CHECK(units / deals > 0.5);
        }
    }
}

TEST_CASE("bots: the leap rummy bot plays legally under every rule and beats random play") {
    const long games = 1000 / kScale;
    // Against three random players: a random player's share of the wins would be a quarter.
    const LeapMatchReport r =
        leap_match({Kind::fair, Kind::random, Kind::random, Kind::random}, games, 3);
    REQUIRE_MESSAGE(r.failure.empty(), r.failure);
    CHECK(r.games == games);
    if (kStrength) {
        CHECK(r.wins[0] / static_cast<double>(games) > 0.4);
        CHECK(r.mean_score[0] > r.mean_score[1]);
    }
    // The other rules: jokers, the alternative rule, seven ranks; legal play to every game's end.
    leap::Rules jokers;
    jokers.jokers = 2;
    leap::Rules distinct;
    distinct.distinct_leaps = true;
    leap::Rules seven;
    seven.ranks = 7;
    for (const leap::Rules& rules : {jokers, distinct, seven}) {
        const LeapMatchReport x =
            leap_match({Kind::fair, Kind::strong, Kind::random}, games / 4, 5, rules);
        CHECK_MESSAGE(x.failure.empty(), x.failure);
        CHECK(x.games == games / 4);
    }
}
