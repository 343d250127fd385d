// The mixed games (issue 48) in the betting engine: Omaha's two-and-three, hi-lo pots split with
// the odd chip high, razz's bring-in and order, the deuce-to-seven and badugi draws, the short
// deck, their options and refusals, and chips kept over random hands of every one.
#include "hand_fixture.h"
#include "poker/hand.h"
#include "simulate.h"

#include <doctest/doctest.h>

#include <map>
#include <random>

using namespace felt;
using namespace felt::poker;
using felt::poker::testing::fixed_limit_stud;
using felt::poker::testing::Table;

namespace {

// Every live player checks (or calls) until the hand ends or `street` begins.
void check_through(Table& t, int street = 99) {
    while (t.state.phase == Phase::betting && t.state.street < street) {
        const Legal l = t.legal();
        t.act(l.seat, l.check ? ActionType::check : ActionType::call);
    }
}

} // namespace

TEST_CASE("omaha: a hand is exactly two hole cards and three of the board") {
    // Heads-up, the button (seat 0) posts the small blind. Seat 1 holds one spade to a board of
    // four: no flush, where hold'em would make it a royal flush. Seat 0's two deuces and the
    // board's make three of a kind.
    Table t("omaha", Structure::pot_limit, {100, 100}, 0);
    t.deck("Ts 3c 4c 5h  2h 2c 7d 8d  As Ks Qs  Js  2d");
    t.start();
    CHECK(t.state.seats[1].count == 4);
    check_through(t);
    REQUIRE(t.state.phase == Phase::done);
    CHECK(t.stack(0) == Chips(102));
    CHECK(t.stack(1) == Chips(98));
}

TEST_CASE("omaha: five or six hole cards, six seats at most with six") {
    Table t("omaha", Structure::pot_limit, {100, 100, 100}, 0);
    t.config.hole_cards = 6;
    t.start();
    CHECK(t.state.seats[1].count == 6);
    Table seven("omaha", Structure::pot_limit, {100, 100, 100, 100, 100, 100, 100}, 0);
    seven.config.hole_cards = 6;
    auto refused = start_hand(std::make_shared<HandConfig>(seven.config));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("six hole cards") != std::string::npos);
    Table holdem("holdem", Structure::no_limit, {100, 100}, 0);
    holdem.config.hole_cards = 5;
    CHECK_FALSE(start_hand(std::make_shared<HandConfig>(holdem.config)).ok());
}

TEST_CASE("omaha hi-lo: the pot split high and low, the odd chip high; without a low, all high") {
    // Seat 0 calls, the small blind folds, the big blind checks: a pot of 5. Seat 2 makes
    // 7-4-3-2-A low with Ah 4d; seat 0 three kings with Ks and a nine, and no low.
    Table t("omaha-hilo", Structure::fixed_limit, {100, 100, 100}, 0);
    t.deck("8h 8d 6c 6h  Ah 4d Qc Jc  Ks Td 9h 9c  2s 3s 7d  Kh  Kc");
    t.start();
    t.act(0, ActionType::call);
    t.act(1, ActionType::fold);
    check_through(t);
    REQUIRE(t.state.phase == Phase::done);
    CHECK(t.stack(0) == Chips(101)); // 3 of 5
    CHECK(t.stack(2) == Chips(100)); // 2 of 5
    const auto wins = t.of(EventType::win);
    REQUIRE(wins.size() == 2);
    CHECK(wins[0].seat == 0);
    CHECK(wins[0].number == 1); // the high half
    CHECK(wins[1].seat == 2);
    CHECK(wins[1].number == 2); // the low half

    // The same hands on a board with no three cards of eight or lower: no low, high takes all.
    Table u("omaha-hilo", Structure::fixed_limit, {100, 100, 100}, 0);
    u.deck("8h 8d 6c 6h  Ah 4d Qc Jc  Ks Td 9h 9c  2s 3s Jd  Kh  Kc");
    u.start();
    u.act(0, ActionType::call);
    u.act(1, ActionType::fold);
    check_through(u);
    CHECK(u.stack(0) == Chips(103));
    CHECK(u.stack(2) == Chips(98));
    REQUIRE(u.of(EventType::win).size() == 1);
    CHECK(u.of(EventType::win)[0].number == 0);
}

TEST_CASE("razz: the highest up card brings in, kings high and spades first; the best low opens") {
    Table t = fixed_limit_stud("razz");
    // Up cards: seat 1 Kd, seat 2 Ks, seat 0 As (the lowest card in razz). The kings tie; the
    // spade is higher and brings in.
    t.deck("9c 8c Kd  7c 6c Ks  Tc Jc As  2c 3c 5h");
    t.start();
    CHECK(t.legal().seat == 2);
    CHECK(t.legal().bring_in);
    t.act(2, ActionType::bring_in);
    check_through(t, 1);
    // Fourth street: K-2, K-3 and 5-A showing; 5-A is the best low and opens.
    REQUIRE(t.state.street == 1);
    CHECK(t.legal().seat == 0);
}

TEST_CASE("deuce-to-seven triple draw: three draws, the small bet twice and then the big bet; "
          "the lowest hand wins") {
    Table t("deuce-triple-draw", Structure::fixed_limit, {100, 100}, 0);
    // Seat 1 is dealt 8-6-4-3-2, seat 0 7-5-4-3-2 (of two suits). Both stand pat three times.
    t.deck("8s 6h 4d 3c 2s  7h 5d 4c 3s 2h");
    t.start();
    std::map<int, Chips> bets; // by street: the bet its first player may make
    while (t.state.phase != Phase::done) {
        const Legal l = t.legal();
        if (l.phase == Phase::drawing) {
            t.act(l.seat, ActionType::discard);
            continue;
        }
        if (l.bet) bets.emplace(t.state.street, l.min_to);
        t.act(l.seat, l.check ? ActionType::check : ActionType::call);
    }
    // After each draw: the small bet, then the big bet twice.
    CHECK(bets == std::map<int, Chips>{{1, Chips(2)}, {2, Chips(4)}, {3, Chips(4)}});
    CHECK(t.state.rounds_played == 4);
    CHECK(t.stack(0) == Chips(102));
}

TEST_CASE("badugi: four cards, three draws; four suits beat three, the lower beats the higher") {
    Table t("badugi", Structure::fixed_limit, {100, 100}, 0);
    // Seat 1: K-Q-J-T of four suits, a badugi. Seat 0: 4-3-2 of three suits and a second spade.
    // Seat 0 draws one to its 4-3-2 and gets the ace of clubs: 4-3-2-A, the best hand.
    t.deck("Ks Qh Jd Tc  4s 3h 2d 5s  Ac");
    t.start();
    CHECK(t.state.seats[0].count == 4);
    while (t.state.phase != Phase::done) {
        const Legal l = t.legal();
        if (l.phase == Phase::drawing) {
            CHECK(l.max_discard == 4);
            t.act(l.seat, ActionType::discard, 0, l.seat == 0 && t.state.street == 1 ? "5s" : "");
            continue;
        }
        t.act(l.seat, l.check ? ActionType::check : ActionType::call);
    }
    CHECK(t.stack(0) == Chips(102));
}

TEST_CASE("short deck: 36 cards; a flush beats a full house, A-6-7-8-9 a set") {
    auto named = named_config("short-deck", "no-limit", "standard", "none", 2);
    REQUIRE(named.ok());
    CHECK(named.value().deck.size() == 36);
    CHECK(named.value().ranking->name() == "short-deck");
    Table t("short-deck", Structure::no_limit, {100, 100}, 0, "short-deck");
    // Seat 1: a full house, nines full of sixes. Seat 0: a flush in hearts.
    t.deck("9s 9d  Ah Kh  9h 6h 6c  Th  7d");
    t.start();
    check_through(t);
    CHECK(t.stack(0) == Chips(102));
    // The other custom, as an option: trips over a straight; a flush still over a full house.
    Table u("short-deck", Structure::no_limit, {100, 100}, 0, "short-deck");
    RankingOptions ro;
    ro.trips_beat_straight = true;
    u.config.ranking = std::shared_ptr<const Ranking>(make_ranking("short-deck", ro).value());
    // Seat 1: three aces. Seat 0: A-6-7-8-9.
    u.deck("As Ad  8c 9d  Ac 6h 7s  Kd  Qc");
    u.start();
    check_through(u);
    CHECK(u.stack(1) == Chips(102));
}

TEST_CASE("the mixed games by name: their rankings, and what they refuse") {
    auto razz = named_config("razz", "fixed-limit", "standard", "none", 8);
    REQUIRE(razz.ok());
    CHECK(razz.value().ranking->name() == "ace-to-five");
    CHECK(named_config("razz", "fixed-limit", "ace-to-five", "none", 8).ok());
    CHECK(named_config("razz", "fixed-limit", "vertical", "none", 8).error().message ==
          "razz plays the ace-to-five ranking, not \"vertical\"");
    CHECK(named_config("razz", "fixed-limit", "standard", "joker", 8).error().message ==
          "razz has no wild cards");
    CHECK(named_config("omaha", "pot-limit", "vertical", "none", 6).error().message ==
          "omaha plays the standard ranking, not \"vertical\"");
    CHECK(named_config("badugi", "fixed-limit", "standard", "none", 7).error().code ==
          Errc::bad_option); // six seats at most
    for (const char* v : {"omaha", "omaha-hilo", "razz", "stud-hilo", "deuce-single-draw",
                          "deuce-triple-draw", "badugi", "short-deck"}) {
        CAPTURE(v);
        CHECK(builtin_variant(v) != nullptr);
        const auto names = builtin_variant_names();
        CHECK(std::find(names.begin(), names.end(), v) != names.end());
    }
}

TEST_CASE("properties over random hands: the mixed games in every structure, hi-lo pots split "
          "as the rules say") {
#ifdef FELT_SANITIZE
    constexpr long kHands = 1'000; // a tenth under the sanitizers
#else
    constexpr long kHands = 10'000; // 24 x 10,000 = 240,000 hands
#endif
    for (const char* variant : {"omaha", "omaha-hilo", "razz", "stud-hilo", "deuce-single-draw",
                                "deuce-triple-draw", "badugi", "short-deck"})
        for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"}) {
            sim::Options o;
            o.variant = variant;
            o.structure = structure;
            o.players = 6;
            o.hands = kHands;
            o.seed = 48;
            o.rake_percent = 5;
            CAPTURE(o.variant);
            CAPTURE(o.structure);
            auto r = sim::simulate(o);
            REQUIRE(r.ok());
            CHECK(r.value().failure == "");
            CHECK(r.value().chips_conserved);
            CHECK(r.value().hands == kHands);
            CHECK(r.value().showdowns > 0);
        }
}

TEST_CASE("omaha: the standard ranking's fast best hand equals every five judged one by one") {
    const auto r = make_ranking("standard").value();
    std::vector<Card> pack = r->cards();
    std::mt19937_64 rng(48);
#ifdef FELT_SANITIZE
    constexpr int kHands = 2'000; // a tenth under the sanitizers
#else
    constexpr int kHands = 20'000;
#endif
    for (int i = 0; i < kHands; ++i) {
        std::shuffle(pack.begin(), pack.end(), rng);
        const std::size_t hole = 4 + static_cast<std::size_t>(i % 3); // 4, 5 or 6
        const std::span<const Card> h(pack.data(), hole), b(pack.data() + hole, 5);
        CHECK(r->omaha_strength(h, b) == r->Ranking::omaha_strength(h, b));
    }
}
