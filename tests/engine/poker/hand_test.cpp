// The betting engine (engine/poker/hand.*): each rule of betting.md, the awkward cases, bad input.
#include "hand_fixture.h"
#include "poker/hand.h"
#include "simulate.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace felt;
using namespace felt::poker;
using felt::poker::testing::fixed_limit_stud;
using felt::poker::testing::Table;

TEST_CASE("hold'em: blinds, order of play, uncalled bet returned") {
    Table t("holdem", Structure::no_limit, {100, 100, 100}, 0);
    t.start();
    // Seat 1 small blind, seat 2 big blind, seat 0 (button) first before the flop.
    const auto blinds = t.of(EventType::blind);
    REQUIRE(blinds.size() == 2);
    CHECK((blinds[0].seat == 1 && blinds[0].amount == Chips(1)));
    CHECK((blinds[1].seat == 2 && blinds[1].amount == Chips(2)));
    CHECK(t.legal().seat == 0);
    CHECK(t.legal().call_amount == Chips(2));
    CHECK(t.legal().min_to == Chips(4)); // a raise by at least the big blind
    t.act(0, ActionType::raise, 10);
    t.act(1, ActionType::fold);
    t.act(2, ActionType::fold);
    // The raise beyond the big blind comes back; seat 0 wins the blinds.
    const auto back = t.of(EventType::uncalled);
    REQUIRE(back.size() == 1);
    CHECK(back[0].seat == 0);
    CHECK(back[0].amount == Chips(8));
    CHECK(t.stack(0) == Chips(103));
    CHECK(t.state.phase == Phase::done);
    CHECK(t.of(EventType::show).empty());
}

TEST_CASE("hold'em heads-up: the button posts the small blind, acts first before the flop and "
          "last after it") {
    Table t("holdem", Structure::no_limit, {100, 100}, 1);
    t.start();
    const auto blinds = t.of(EventType::blind);
    CHECK((blinds[0].seat == 1 && blinds[0].amount == Chips(1)));
    CHECK((blinds[1].seat == 0 && blinds[1].amount == Chips(2)));
    CHECK(t.legal().seat == 1);
    t.act(1, ActionType::call);
    CHECK(t.legal().seat == 0); // the big blind's option
    CHECK(t.legal().check);
    t.act(0, ActionType::check);
    CHECK(t.of(EventType::deal_board).size() == 1);
    CHECK(t.legal().seat == 0); // after the flop the big blind acts first
}

TEST_CASE("hold'em straddles: each posted in turn after the big blind; the last opens the "
          "betting to its left, sets the smallest raise and has the option") {
    Table t("holdem", Structure::no_limit, {100, 100, 100, 100, 100}, 0);
    t.config.stakes.straddles = {Chips(4), Chips(8)};
    t.start();
    const auto blinds = t.of(EventType::blind);
    REQUIRE(blinds.size() == 4);
    CHECK((blinds[2].seat == 3 && blinds[2].amount == Chips(4)));
    CHECK((blinds[3].seat == 4 && blinds[3].amount == Chips(8)));
    CHECK(t.legal().seat == 0); // left of the last straddler
    CHECK(t.legal().call_amount == Chips(8));
    CHECK(t.legal().min_to == Chips(16)); // a raise by at least the largest straddle
    t.refuse(0, ActionType::raise, 15, Errc::bad_amount);
    for (int seat : {0, 1, 2, 3}) t.act(seat, ActionType::call);
    CHECK(t.legal().seat == 4); // the straddle's option
    CHECK(t.legal().check);
    CHECK(t.legal().raise);
    t.act(4, ActionType::check);
    CHECK(t.of(EventType::deal_board).size() == 1);
    // Refused: a straddle of nothing, and more straddles than players after the big blind.
    Table bad("holdem", Structure::no_limit, {100, 100, 100}, 0);
    bad.config.stakes.straddles = {Chips(0)};
    CHECK(start_hand(std::make_shared<HandConfig>(bad.config)).error().code == Errc::bad_config);
    bad.config.stakes.straddles = {Chips(4), Chips(8)};
    CHECK(start_hand(std::make_shared<HandConfig>(bad.config)).error().message ==
          "straddles follow the big blind, one per player after it");
}

TEST_CASE("an unknown hand (a replayed history's) shows nothing and loses to any known hand") {
    for (bool unknown : {false, true}) {
        CAPTURE(unknown);
        Table t("holdem", Structure::no_limit, {100, 100}, 1);
        t.deck("AsKs 7c2d QsJsTs 3h 4h"); // seat 0: a royal flush; seat 1: seven high
        t.config.unknown_hands = unknown ? 0b01 : 0;
        t.start();
        t.act(1, ActionType::call);
        t.act(0, ActionType::check);
        for (int street = 0; street < 3; ++street) {
            t.act(0, ActionType::check);
            t.act(1, ActionType::check);
        }
        REQUIRE(t.state.phase == Phase::done);
        const auto shows = t.of(EventType::show);
        CHECK(shows.size() == (unknown ? 1u : 2u));
        CHECK(t.stack(0) == Chips(unknown ? 98 : 102));
    }
}

TEST_CASE("no limit: minimum raises grow with the largest raise") {
    Table t("holdem", Structure::no_limit, {1000, 1000, 1000, 1000}, 0);
    t.start();
    t.act(3, ActionType::raise, 10); // by 8
    CHECK(t.legal().min_to == Chips(18));
    t.refuse(0, ActionType::raise, 17, Errc::bad_amount);
    t.act(0, ActionType::raise, 30); // by 20
    CHECK(t.legal().min_to == Chips(50));
    CHECK(t.legal().max_to == Chips(1000));
}

TEST_CASE("a short all-in does not reopen the betting") {
    Table t("holdem", Structure::no_limit, {1000, 1000, 1000, 150}, 0);
    t.start();
    // Seat 3 opens; seat 0 raises to 100; seat 3's all-in to 150 is less than a full raise.
    t.act(3, ActionType::call);
    t.act(0, ActionType::raise, 100);
    t.act(1, ActionType::fold);
    t.act(2, ActionType::fold);
    CHECK(t.legal().seat == 3);
    CHECK(t.legal().max_to == Chips(150));
    CHECK(t.legal().min_to == Chips(150)); // all in for less than the 198 a full raise needs
    t.act(3, ActionType::raise, 150);
    // Back to seat 0, who already acted: call or fold only.
    const Legal l = t.legal();
    CHECK(l.seat == 0);
    CHECK(l.call);
    CHECK(l.call_amount == Chips(50));
    CHECK_FALSE(l.raise);
    t.refuse(0, ActionType::raise, 300, Errc::illegal_action);
    t.act(0, ActionType::call);
}

TEST_CASE("a full raise after a short all-in reopens it for players yet to act") {
    Table t("holdem", Structure::no_limit, {1000, 1000, 1000, 1000}, 0);
    t.start();
    t.act(3, ActionType::raise, 10);
    t.act(0, ActionType::call);
    t.act(1, ActionType::call);
    t.act(2, ActionType::raise, 40); // full raise: everyone may raise again
    CHECK(t.legal().seat == 3);
    CHECK(t.legal().raise);
}

TEST_CASE("pot limit: the largest raise is the call plus the pot after it") {
    Table t("holdem", Structure::pot_limit, {1000, 1000, 1000}, 0);
    t.start();
    // Blinds 1 and 2: seat 0 calls 2, the pot after the call is 5, so the raise is to 7.
    CHECK(t.legal().max_to == Chips(7));
    t.refuse(0, ActionType::raise, 8, Errc::bad_amount);
    t.act(0, ActionType::call);
    // Seat 1 owes 1; the pot after that call is 6; the raise is to 2 + 6 = 8.
    CHECK(t.legal().max_to == Chips(8));
    t.act(1, ActionType::raise, 8);
    // Seat 2 owes 6: pot 2 + 8 + 2 = 12, after the call 18; to 8 + 18 = 26.
    CHECK(t.legal().max_to == Chips(26));
}

TEST_CASE("fixed limit: one bet and three raises, lifted heads-up; the big bet on the turn") {
    Table t("holdem", Structure::fixed_limit, {1000, 1000, 1000}, 0);
    t.start();
    CHECK(t.legal().min_to == Chips(4));
    CHECK(t.legal().max_to == Chips(4));
    t.refuse(0, ActionType::raise, 5, Errc::bad_amount);
    t.act(0, ActionType::raise, 4);
    t.act(1, ActionType::raise, 6);
    t.act(2, ActionType::raise, 8); // the big blind, then three raises: capped
    CHECK(t.legal().seat == 0);
    CHECK_FALSE(t.legal().raise);
    t.act(0, ActionType::call);
    t.act(1, ActionType::call);
    // Flop: small bets. Seat 1 bets, seat 2 folds; heads-up, raising goes on past the cap.
    t.act(1, ActionType::bet, 2);
    t.act(2, ActionType::fold);
    for (int i = 0; i < 5; ++i) t.act(i % 2 == 0 ? 0 : 1, ActionType::raise, 4 + 2 * i);
    CHECK(t.legal().raise);
    t.act(t.legal().seat, ActionType::call);
    // Turn: the big bet.
    CHECK(t.legal().min_to == Chips(4));
    t.act(t.legal().seat, ActionType::bet, 4);
    CHECK(t.legal().min_to == Chips(8));
}

TEST_CASE("fixed limit, a tournament's table: the cap holds heads-up when asked") {
    Table t("holdem", Structure::fixed_limit, {1000, 1000}, 0);
    t.config.cap_heads_up = true;
    t.start();
    // Heads-up: seat 0 (button) small blind, seat 1 big blind. A bet and three raises: capped.
    t.act(0, ActionType::raise, 4);
    t.act(1, ActionType::raise, 6);
    t.act(0, ActionType::raise, 8);
    CHECK_FALSE(t.legal().raise);
    t.refuse(1, ActionType::raise, 10, Errc::illegal_action);
    t.act(1, ActionType::call);
    CHECK(t.state.street == 1);
}

TEST_CASE("the dead button: blinds posted where the tournament places them") {
    SUBCASE("a dead small blind: the big blind alone, its left first, the big blind first after") {
        // Seats 0, 1, 2 hold players, 3 is empty: the button stands on it, the small blind's
        // seat (0) ... is given as dead, and seat 1 posts the big blind.
        Table t("holdem", Structure::no_limit, {100, 100, 100, 0}, 3);
        t.config.small_blind_seat = -1;
        t.config.big_blind_seat = 1;
        t.start();
        const auto blinds = t.of(EventType::blind);
        REQUIRE(blinds.size() == 1);
        CHECK((blinds[0].seat == 1 && blinds[0].amount == Chips(2)));
        CHECK(t.legal().seat == 2); // left of the big blind
        t.act(2, ActionType::call);
        t.act(0, ActionType::call);
        CHECK(t.legal().seat == 1); // the big blind's option
        t.act(1, ActionType::check);
        REQUIRE(t.state.street == 1);
        CHECK(t.legal().seat == 0); // after the flop: left of the (dead) button
        CHECK(chips_in_play(t.state) == Chips(300));
    }
    SUBCASE("a dead button: the small and big blinds where given, not left of the button") {
        Table t("holdem", Structure::no_limit, {100, 0, 100, 100}, 1);
        t.config.small_blind_seat = 2;
        t.config.big_blind_seat = 3;
        t.start();
        const auto blinds = t.of(EventType::blind);
        REQUIRE(blinds.size() == 2);
        CHECK(blinds[0].seat == 2);
        CHECK(blinds[1].seat == 3);
        CHECK(t.legal().seat == 0);
    }
    SUBCASE("blind seats that hold nobody are refused") {
        Table t("holdem", Structure::no_limit, {100, 0, 100}, 0);
        t.config.big_blind_seat = 1;
        auto empty = start_hand(std::make_shared<HandConfig>(t.config));
        REQUIRE_FALSE(empty.ok());
        CHECK(empty.error().message.find("big blind") != std::string::npos);
        t.config.big_blind_seat = 2;
        t.config.small_blind_seat = 2;
        CHECK_FALSE(start_hand(std::make_shared<HandConfig>(t.config)).ok());
        t.config.small_blind_seat = -1;
        t.config.big_blind_seat = -1;
        CHECK(start_hand(std::make_shared<HandConfig>(t.config)).ok());
    }
}

TEST_CASE("stud: antes, bring-in by the lowest up card, ties by suit, then the best showing hand") {
    Table t("stud", Structure::fixed_limit, {100, 100, 100}, 0);
    t.config.stakes = Stakes{};
    t.config.stakes.ante = Chips(1);
    t.config.stakes.bring_in = Chips(1);
    t.config.stakes.small_bet = Chips(4);
    t.config.stakes.big_bet = Chips(8);
    // Dealing starts left of the button (seat 1): two down and one up to each in turn.
    // Up cards: seat 1 3h, seat 2 3c, seat 0 Ks. The threes tie; clubs is lower.
    t.deck("2s 2h 3h  4s 4h 3c  5s 5h Ks  9c Kh 2d");
    t.start();
    CHECK(t.of(EventType::ante).size() == 3);
    const Legal l = t.legal();
    CHECK(l.seat == 2);
    CHECK(l.bring_in);
    CHECK(l.bring_in_amount == Chips(1));
    CHECK(l.bet);
    CHECK(l.min_to == Chips(4)); // or complete to the small bet
    CHECK_FALSE(l.fold);
    t.act(2, ActionType::bring_in);
    CHECK(t.legal().seat == 0);
    CHECK(t.legal().call_amount == Chips(1));
    CHECK(t.legal().raise);
    CHECK(t.legal().min_to == Chips(4)); // completing
    t.act(0, ActionType::raise, 4);
    t.act(1, ActionType::call);
    t.act(2, ActionType::call);
    // Fourth street: seat 1 shows 3h 9c, seat 2 3c Kh, seat 0 Ks 2d: K-3 is best showing (first
    // from the button's left among equals), ahead of K-2.
    CHECK(t.state.street == 1);
    CHECK(t.legal().seat == 2);
}

TEST_CASE("fixed-limit stud: an open pair on fourth street, under each rule") {
    // Third street as in the test above; on fourth street seat 0 shows Ks and `fourth`'s last
    // card. With Kd, seat 0 shows a pair and bets first; with 2d, seat 2 (K-3) does.
    auto table = [](OpenPair rule, const char* fourth, const char* variant = "stud") {
        Table t = fixed_limit_stud(variant);
        t.config.open_pair = rule;
        t.deck((std::string("2s 2h 3h  4s 4h 3c  5s 5h Ks  ") + fourth).c_str());
        t.start();
        t.act(2, ActionType::bring_in);
        t.act(0, ActionType::raise, 4);
        t.act(1, ActionType::call);
        t.act(2, ActionType::call);
        REQUIRE(t.state.street == 1);
        return t;
    };
    SUBCASE("big_bet, the source's rule and the default: a pair showing makes it the big bet") {
        CHECK(HandConfig{}.open_pair == OpenPair::big_bet);
        Table t = table(OpenPair::big_bet, "9c Kh Kd");
        REQUIRE(t.legal().seat == 0);
        CHECK((t.legal().min_to == Chips(8) && t.legal().max_to == Chips(8)));
        CHECK_FALSE(t.legal().two_sizes);
        t.refuse(0, ActionType::bet, 4, Errc::bad_amount);
        t.act(0, ActionType::bet, 8);
        CHECK(t.legal().min_to == Chips(16)); // raises by the big bet too
        t.act(1, ActionType::raise, 16);
    }
    SUBCASE("choice, the casino custom: the first bettor chooses, raises follow") {
        Table t = table(OpenPair::choice, "9c Kh Kd");
        Legal l = t.legal();
        CHECK(l.two_sizes);
        CHECK((l.min_to == Chips(4) && l.max_to == Chips(8)));
        t.refuse(0, ActionType::bet, 6, Errc::bad_amount); // nothing between
        Table small = t;
        small.act(0, ActionType::bet, 4);
        CHECK_FALSE(small.legal().two_sizes);
        CHECK((small.legal().min_to == Chips(8) && small.legal().max_to == Chips(8)));
        small.refuse(1, ActionType::raise, 12, Errc::bad_amount);
        t.act(0, ActionType::bet, 8);
        CHECK((t.legal().min_to == Chips(16) && t.legal().max_to == Chips(16)));
        // Checked round to the player after: the choice is still open.
        Table checked = table(OpenPair::choice, "9c Kh Kd");
        checked.act(0, ActionType::check);
        CHECK(checked.legal().two_sizes);
    }
    SUBCASE("off: the small bet, pair or not") {
        Table t = table(OpenPair::off, "9c Kh Kd");
        CHECK((t.legal().min_to == Chips(4) && t.legal().max_to == Chips(4)));
        t.refuse(0, ActionType::bet, 8, Errc::bad_amount);
    }
    SUBCASE("no pair showing: the small bet under every rule") {
        for (OpenPair rule : {OpenPair::big_bet, OpenPair::choice, OpenPair::off}) {
            Table t = table(rule, "9c Kh 2d");
            REQUIRE(t.legal().seat == 2);
            CHECK((t.legal().min_to == Chips(4) && t.legal().max_to == Chips(4)));
            CHECK_FALSE(t.legal().two_sizes);
        }
    }
    SUBCASE("a pair in the hole is not a pair showing") {
        // Seat 1's down cards 2s 2h pair; its up cards 3h 9c do not.
        Table t = table(OpenPair::big_bet, "9c Kh 2d");
        CHECK(t.legal().min_to == Chips(4));
    }
    SUBCASE("fifth street is the big bet anyway") {
        Table t = table(OpenPair::off, "9c Kh Kd");
        for (int i = 0; i < 3; ++i) t.act(t.legal().seat, ActionType::check);
        REQUIRE(t.state.street == 2);
        CHECK(t.legal().min_to == Chips(8));
    }
    CHECK(open_pair_name(OpenPair::choice) == "choice");
    CHECK(parse_open_pair("big_bet") == OpenPair::big_bet);
    CHECK_FALSE(parse_open_pair("sometimes").has_value());
}

TEST_CASE("stud with eight players: the last card is a shared board card when the pack runs "
          "short") {
    sim::Options o;
    o.variant = "stud";
    o.players = 8;
    auto c = sim::table_config(o);
    REQUIRE(c.ok());
    HandConfig config = c.value();
    for (int i = 0; i < 8; ++i) config.stacks[static_cast<std::size_t>(i)] = Chips(10'000);
    auto s = start_hand(std::make_shared<HandConfig>(config));
    REQUIRE(s.ok());
    HandState state = s.value().state;
    std::vector<Event> events = s.value().events;
    // Everyone checks or calls to the end.
    while (state.phase != Phase::done) {
        const Legal l = legal_actions(state);
        Action a{l.bring_in ? ActionType::bring_in
                 : l.check  ? ActionType::check
                            : ActionType::call,
                 l.seat,
                 0,
                 {}};
        REQUIRE_FALSE(apply_in_place(state, a, events).has_value());
    }
    int board = 0;
    for (const Event& e : events)
        if (e.type == EventType::deal_board) board += e.count;
    CHECK(board == 1); // 8 x 6 = 48 cards dealt, 4 left for 8 players
    CHECK(state.board_count == 1);
}

TEST_CASE("draw: discards, receipts, and a new stock from earlier discards") {
    Table t("draw", Structure::no_limit, {100, 100, 100, 100, 100, 100, 100}, 0);
    t.start();
    for (int i = 0; i < 7; ++i) {
        const Legal l = t.legal();
        t.act(l.seat, l.check ? ActionType::check : ActionType::call);
    }
    // Seven players hold 35 cards; 17 remain. Each throws all five.
    for (int i = 0; i < 7; ++i) {
        const Legal l = t.legal();
        REQUIRE(l.phase == Phase::drawing);
        CHECK(l.max_discard == 5);
        const SeatState& p = t.state.seats[static_cast<std::size_t>(l.seat)];
        std::string cards =
            Deck::standard().to_string(std::span<const Card>(p.cards.data(), p.count));
        t.act(l.seat, ActionType::discard, 0, cards.c_str());
        CHECK(t.state.seats[static_cast<std::size_t>(l.seat)].count == 5);
    }
    CHECK(t.of(EventType::reshuffle).size() >= 1);
    // Discards and receipts are the owner's to see.
    for (const Event& e : t.of(EventType::discard)) CHECK(e.visibility == Visibility::owner);
    for (const Event& e : t.of(EventType::receive)) CHECK(e.visibility == Visibility::owner);
    for (const Event& e : t.of(EventType::deal_down)) CHECK(e.visibility == Visibility::owner);
}

TEST_CASE("the odd chip of a split pot goes to the first winner left of the button") {
    // Seat 0 calls, the small blind folds, the big blind checks: 5 chips. Seats 2 and 0 both play
    // the board's A-K-Q-J-T: 2 each, and the odd chip to seat 2, first after the button.
    Table t("holdem", Structure::no_limit, {100, 100, 100}, 0);
    t.deck("2c 4h  2d 3d  3c 4c  Ts Js Qh Kd As");
    t.start();
    t.act(0, ActionType::call);
    t.act(1, ActionType::fold);
    t.act(2, ActionType::check);
    for (int street = 0; street < 3; ++street)
        for (int i = 0; i < 2; ++i) t.act(t.legal().seat, ActionType::check);
    REQUIRE(t.state.phase == Phase::done);
    CHECK(t.stack(0) == Chips(100));
    CHECK(t.stack(1) == Chips(99));
    CHECK(t.stack(2) == Chips(101));
}

TEST_CASE("side pots at showdown: three all-ins of different sizes, with a fold in between") {
    Table t("holdem", Structure::no_limit, {50, 150, 300, 1000, 500}, 0);
    // Dealt from seat 1: seat 1 As Ah, seat 2 2h 3h, seat 3 Kd Kc, seat 4 9d 9h, seat 0 7c 8c;
    // board Ac Ad Ks 4d 5h: seat 1 four aces, seat 3 kings full, seat 2 a five-high straight.
    t.deck("As Ah  2h 3h  Kd Kc  9d 9h  7c 8c  Ac Ad Ks 4d 5h");
    t.start();
    t.act(3, ActionType::raise, 200);
    t.act(4, ActionType::call);
    t.act(0, ActionType::call);       // all in for 50
    t.act(1, ActionType::call);       // all in for 150
    t.act(2, ActionType::raise, 300); // all in, short of a full raise
    t.act(3, ActionType::call);
    t.act(4, ActionType::fold); // leaves 200 in the pots
    REQUIRE(t.state.phase == Phase::done);
    // Pots: 250 (seats 0-3), 400 (seats 1-3, with 100 of the folded seat's), 350 (seats 2-3).
    CHECK(t.stack(0) == Chips(0));
    CHECK(t.stack(1) == Chips(650));
    CHECK(t.stack(2) == Chips(0));
    CHECK(t.stack(3) == Chips(1050));
    CHECK(t.stack(4) == Chips(300));
    const auto wins = t.of(EventType::win);
    REQUIRE(wins.size() == 3);
    CHECK((wins[0].seat == 1 && wins[0].amount == Chips(250)));
    CHECK((wins[1].seat == 1 && wins[1].amount == Chips(400)));
    CHECK((wins[2].seat == 3 && wins[2].amount == Chips(350)));
}

TEST_CASE("rake: a percentage of each pot with a cap; no flop, no drop") {
    Table t("holdem", Structure::no_limit, {100, 100}, 0);
    t.config.rake.percent = 10;
    t.config.rake.cap = Chips(3);
    t.start();
    t.act(0, ActionType::raise, 10);
    t.act(1, ActionType::fold);
    CHECK(t.of(EventType::rake).empty()); // ended before the flop
    Table u("holdem", Structure::no_limit, {100, 100}, 0);
    u.config.rake.percent = 10;
    u.config.rake.cap = Chips(3);
    u.start();
    u.act(0, ActionType::raise, 20);
    u.act(1, ActionType::call);
    u.act(1, ActionType::bet, 20);
    u.act(0, ActionType::fold);
    Chips rake{};
    for (const Event& e : u.of(EventType::rake)) rake += e.amount;
    CHECK(rake == Chips(3)); // 10% of 40 is 4, capped at 3
    CHECK(u.stack(0) + u.stack(1) + rake == Chips(200));
}

TEST_CASE("bad input changes nothing and names the problem") {
    Table t("holdem", Structure::no_limit, {100, 100, 100}, 0);
    t.start();
    t.refuse(1, ActionType::call, 0, Errc::not_your_turn);
    t.refuse(0, ActionType::check, 0, Errc::cannot_check);
    t.refuse(0, ActionType::raise, 3, Errc::bad_amount);
    t.refuse(0, ActionType::raise, 101, Errc::bad_amount);
    t.refuse(0, ActionType::bet, 10, Errc::illegal_action); // a bet stands: raise
    t.refuse(0, ActionType::discard, 0, Errc::illegal_action);
    t.act(0, ActionType::fold);
    t.act(1, ActionType::fold);
    t.refuse(2, ActionType::check, 0, Errc::hand_over);

    Table bad("holdem", Structure::no_limit, {100, 0, 0}, 0);
    auto s = start_hand(std::make_shared<HandConfig>(bad.config));
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == Errc::bad_config);
    Table dup("holdem", Structure::no_limit, {100, 100}, 0);
    dup.config.deck = Deck::standard().parse_cards("As Ks").value();
    dup.config.deck.push_back(dup.config.deck[0]);
    CHECK(start_hand(std::make_shared<HandConfig>(dup.config)).error().code == Errc::bad_config);
}

TEST_CASE("draw: the discard must be cards held, within the table's limit") {
    Table t("draw", Structure::no_limit, {100, 100}, 0);
    t.config.max_discard = 3;
    t.deck("As Qs Ts 3h 5h  Ks Js 2h 4h 7d");
    t.start();
    t.act(0, ActionType::call);
    t.act(1, ActionType::check);
    // Seat 1 (left of the button) draws first: dealt As Qs Ts 3h 5h.
    CHECK(t.legal().seat == 1);
    CHECK(t.legal().max_discard == 3);
    t.refuse(1, ActionType::discard, 0, Errc::bad_amount, "As Qs Ts 3h");
    t.refuse(1, ActionType::discard, 0, Errc::illegal_action, "Ks");
    t.act(1, ActionType::discard, 0, "3h 5h");
    CHECK(t.state.seats[1].count == 5);
}

TEST_CASE("vertical showdown: every card a player holds is the hand") {
    Table t("shrinking", Structure::no_limit, {100, 100}, 0, "vertical");
    t.start();
    CHECK(t.state.seats[0].count == 9);
    while (t.state.phase != Phase::done) {
        const Legal l = t.legal();
        if (l.phase == Phase::drawing) {
            CHECK(l.min_discard == 2);
            CHECK(l.max_discard == 2);
            CHECK(l.stand_pat);
            const SeatState& p = t.state.seats[static_cast<std::size_t>(l.seat)];
            const std::string two =
                Deck::standard().to_string(std::span<const Card>(p.cards.data(), 2));
            t.act(l.seat, ActionType::discard, 0, two.c_str());
        } else {
            t.act(l.seat, l.check ? ActionType::check : ActionType::call);
        }
    }
    CHECK(t.of(EventType::show).size() == 2);
    CHECK(t.state.seats[0].count == 5); // 9, then four draws of two for one
    CHECK(t.stack(0) + t.stack(1) == Chips(200));
}

TEST_CASE("shrinking draw: drawing is optional, four draws unless the table plays fewer, the big "
          "bet from the second") {
    // Seat 0 draws at every chance, seat 1 stands pat at its first and third; on every street
    // the first to act bets the smallest bet and the other calls. The cards each ends with, and
    // each street's bet after the first.
    auto play = [](int draws) {
        Table t("shrinking", Structure::fixed_limit, {100, 100}, 0, "vertical");
        t.config.stakes.small_bet = Chips(2);
        t.config.stakes.big_bet = Chips(4);
        t.config.draws = draws;
        t.start();
        int drawn_by_1 = 0;
        std::vector<std::int64_t> bets;
        while (t.state.phase != Phase::done) {
            const Legal l = t.legal();
            const SeatState& p = t.state.seats[static_cast<std::size_t>(l.seat)];
            if (l.phase != Phase::drawing) {
                if (l.bet) bets.push_back(l.min_to.value());
                if (l.bet)
                    t.act(l.seat, ActionType::bet, l.min_to.value());
                else
                    t.act(l.seat, l.check ? ActionType::check : ActionType::call);
                continue;
            }
            const auto cards = [&](std::size_t n) {
                return Deck::standard().to_string(std::span<const Card>(p.cards.data(), n));
            };
            if (l.seat == 1 && drawn_by_1++ % 2 == 0) {
                // One card is neither a draw nor standing pat.
                t.refuse(1, ActionType::discard, 0, Errc::bad_amount, cards(1).c_str());
                t.act(1, ActionType::discard, 0, ""); // stands pat
            } else {
                t.act(l.seat, ActionType::discard, 0, cards(2).c_str());
            }
        }
        return std::tuple{t.state.seats[0].count, t.state.seats[1].count, bets};
    };
    const auto [a4, b4, bets4] = play(0);
    CHECK(a4 == 5); // four draws
    CHECK(b4 == 7); // two of them
    CHECK(bets4 == std::vector<std::int64_t>{2, 4, 4, 4});
    const auto [a1, b1, bets1] = play(1);
    CHECK(a1 == 8);
    CHECK(b1 == 9);
    CHECK(bets1 == std::vector<std::int64_t>{2});
    const auto [a2, b2, bets2] = play(2);
    CHECK(a2 == 7);
    CHECK(bets2 == std::vector<std::int64_t>{2, 4});
    HandConfig c = Table("shrinking", Structure::fixed_limit, {100, 100}, 0, "vertical").config;
    c.draws = 5;
    CHECK(start_hand(std::make_shared<const HandConfig>(c)).error().code == Errc::bad_config);
}

TEST_CASE("properties over random hands: every variant and structure") {
#ifdef FELT_SANITIZE
    constexpr long kHands = 2'000; // per variant and structure; sanitizers are slow
#else
    constexpr long kHands = 60'000; // 18 x 60,000 = 1,080,000 hands
#endif
    long total = 0;
    for (const char* variant : {"straight", "draw", "stud", "holdem", "mexican", "shrinking"})
        for (const char* structure : {"no-limit", "pot-limit", "fixed-limit"}) {
            sim::Options o;
            o.variant = variant;
            o.structure = structure;
            o.players = std::string(variant) == "shrinking" ? 5 : 6;
            o.hands = kHands;
            o.seed = 7;
            o.rake_percent = 5;
            CAPTURE(o.variant);
            CAPTURE(o.structure);
            auto r = sim::simulate(o);
            REQUIRE(r.ok());
            CHECK(r.value().failure == "");
            CHECK(r.value().chips_conserved);
            CHECK(r.value().hands == kHands);
            total += r.value().hands;
        }
    CHECK(total == 18 * kHands);
    // Fixed-limit stud and Mexican stud under the two other open-pair rules.
    for (const char* variant : {"stud", "mexican"})
        for (const char* rule : {"choice", "off"}) {
            sim::Options o;
            o.variant = variant;
            o.structure = "fixed-limit";
            o.open_pair = rule;
            o.hands = kHands / 4;
            o.seed = 8;
            CAPTURE(o.variant);
            CAPTURE(o.open_pair);
            auto r = sim::simulate(o);
            REQUIRE(r.ok());
            CHECK(r.value().failure == "");
            CHECK(r.value().hands == kHands / 4);
        }
}

TEST_CASE("simulate: the signature of a fixed run is pinned") {
    // Changes only when the engine's behaviour (or the simulator's choices) change: a commit that
    // changes it must say why.
    sim::Options o;
    o.hands = 2'000;
    o.seed = 1;
    auto r = sim::simulate(o);
    REQUIRE(r.ok());
    CHECK(sim::hex(r.value().signature) == "a67c9baa46d74412");
}

TEST_CASE("fixed-limit stud: the big bet from fifth street, or in the final interval only") {
    // Three players check every street to the end; the size each street would bet is read from
    // its first player's legal bet.
    auto sizes = [](BigBetFrom rule, OpenPair pair, const char* variant) {
        Table t = fixed_limit_stud(variant);
        t.config.open_pair = pair;
        t.config.big_bet_from = rule;
        // Seat 0 pairs its kings on fourth street (an open pair).
        t.deck("2s 2h 3h  4s 4h 3c  5s 5h Ks  9c Qh Kd  7c 8d 6h  Jc Jd Js  Tc Td Ts  2c 2d 3s");
        t.start();
        std::vector<std::int64_t> out;
        t.act(2, ActionType::bring_in);
        t.act(0, ActionType::call);
        t.act(1, ActionType::call);
        while (t.state.phase != Phase::done) {
            const int street = t.state.street;
            out.push_back(t.legal().min_to.value());
            while (t.state.phase != Phase::done && t.state.street == street)
                t.act(t.legal().seat, ActionType::check);
        }
        return out;
    };
    CHECK(HandConfig{}.big_bet_from == BigBetFrom::marked);
    // Fourth to seventh street.
    CHECK(sizes(BigBetFrom::marked, OpenPair::off, "stud") ==
          std::vector<std::int64_t>{4, 8, 8, 8});
    CHECK(sizes(BigBetFrom::last, OpenPair::off, "stud") == std::vector<std::int64_t>{4, 4, 4, 8});
    // The open pair keeps working under both.
    CHECK(sizes(BigBetFrom::last, OpenPair::big_bet, "stud") ==
          std::vector<std::int64_t>{8, 4, 4, 8});
    CHECK(sizes(BigBetFrom::marked, OpenPair::big_bet, "stud") ==
          std::vector<std::int64_t>{8, 8, 8, 8});
    CHECK(big_bet_from_name(BigBetFrom::last) == "seventh");
    CHECK(parse_big_bet_from("fifth") == BigBetFrom::marked);
    CHECK_FALSE(parse_big_bet_from("sixth").has_value());
}

// The position of the first event of a type, or the end.
static std::size_t first_of(const std::vector<Event>& events, EventType t, std::size_t from = 0) {
    for (std::size_t i = from; i < events.size(); ++i)
        if (events[i].type == t) return i;
    return events.size();
}

TEST_CASE("an all-in shows every live hand at once, before the cards still to come") {
    SUBCASE("hold'em, all in before the flop: shown, then the board, then the showdown") {
        Table t("holdem", Structure::no_limit, {50, 100, 100}, 0);
        t.start();
        t.act(0, ActionType::raise, 50); // all in
        t.act(1, ActionType::fold);
        t.act(2, ActionType::call); // seat 2 keeps chips: nobody is left to bet against
        REQUIRE(t.state.phase == Phase::done);
        const auto shows = t.of(EventType::show);
        REQUIRE(shows.size() == 4); // each twice: at once and at the showdown
        CHECK((shows[0].number == 1 && shows[1].number == 1));
        CHECK((shows[2].number == 0 && shows[3].number == 0));
        CHECK(shows[0].seat == 2); // from left of the button, the folded seat 1 not at all
        CHECK(shows[1].seat == 0);
        CHECK(shows[0].count == 2);
        const std::size_t shown = first_of(t.events, EventType::show);
        CHECK(shown < first_of(t.events, EventType::deal_board));
        CHECK(t.state.shown);
    }
    SUBCASE("all in on the river: nothing is left to come, so only the showdown") {
        Table t("holdem", Structure::no_limit, {100, 100}, 1);
        t.start();
        t.act(1, ActionType::call);
        t.act(0, ActionType::check);
        for (int street = 0; street < 2; ++street) {
            t.act(0, ActionType::check);
            t.act(1, ActionType::check);
        }
        t.act(0, ActionType::bet, 98);
        t.act(1, ActionType::call);
        const auto shows = t.of(EventType::show);
        REQUIRE(shows.size() == 2);
        CHECK((shows[0].number == 0 && shows[1].number == 0));
    }
    SUBCASE("a draw game: players still draw, so the hands wait for the showdown") {
        Table t("draw", Structure::no_limit, {20, 100}, 1);
        t.start();
        t.act(1, ActionType::raise, 20); // all in
        t.act(0, ActionType::call);
        CHECK(t.of(EventType::show).empty()); // the draw is still to come
        CHECK_FALSE(t.state.shown);
    }
    SUBCASE("seven-card stud: shown at once with the cards so far, and again with all seven") {
        Table t("stud", Structure::fixed_limit, {100, 6, 100}, 0);
        t.config.stakes = Stakes{};
        t.config.stakes.ante = Chips(1);
        t.config.stakes.bring_in = Chips(1);
        t.config.stakes.small_bet = Chips(4);
        t.config.stakes.big_bet = Chips(8);
        t.start();
        // Seat 2 folds, seat 0 bets whenever it can, and seat 1 calls until it is all in.
        while (t.state.phase != Phase::done && !t.state.shown) {
            const Legal& l = t.legal();
            if (l.bring_in)
                t.act(l.seat, ActionType::bring_in);
            else if (l.seat == 2 && l.fold)
                t.act(l.seat, ActionType::fold);
            else if (l.seat == 0 && l.bet)
                t.act(l.seat, ActionType::bet, l.max_to.value());
            else if (l.call)
                t.act(l.seat, ActionType::call);
            else
                t.act(l.seat, ActionType::check);
        }
        REQUIRE(t.state.shown);
        const auto shows = t.of(EventType::show);
        REQUIRE(shows.size() == 4);
        CHECK((shows[0].number == 1 && shows[1].number == 1));
        CHECK(shows[0].count < 7);
        CHECK((shows[2].count == 7 && shows[3].count == 7));
    }
}
