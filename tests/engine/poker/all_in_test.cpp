// The all-in EV (poker/all_in.h): each pot shared by the chances of the hands in it at the moment
// they were shown, set beside what each player won.
#include "cards/deck.h"
#include "hand_fixture.h"
#include "odds/equity.h"
#include "poker/all_in.h"

#include <doctest/doctest.h>

using namespace felt;
using namespace felt::poker;
using felt::poker::testing::Table;

namespace {

double chance(std::vector<std::string> hands, int of) {
    auto q = odds::make_query(odds::Game::holdem, hands, "", "").value();
    return odds::equity(q).value().equity[static_cast<std::size_t>(of)];
}

} // namespace

TEST_CASE("all-in EV: a main pot of three and a side pot of two, by the chances in each") {
    // Button 0: seat 1 is dealt first, then seat 2, then seat 0.
    Table t("holdem", Structure::no_limit, {100, 30, 60}, 0);
    t.deck("KsKh QdQc AsAh");
    t.start();
    t.act(0, ActionType::raise, 100); // all in
    t.act(1, ActionType::call);       // all in for 30
    t.act(2, ActionType::call);       // all in for 60; 40 of seat 0's come back
    REQUIRE(t.state.phase == Phase::done);
    const auto ev = all_in_ev(*t.state.config, t.events, t.state, odds::Query{});
    REQUIRE(ev.has_value());
    CHECK(ev->street == 0);
    CHECK(ev->exact);
    REQUIRE(ev->seats.size() == 3);
    // The main pot: 90 among all three; the side pot: 60 between seats 0 (aces) and 2 (queens).
    const double aces3 = chance({"AsAh", "KsKh", "QdQc"}, 0);
    const double kings3 = chance({"AsAh", "KsKh", "QdQc"}, 1);
    const double queens3 = chance({"AsAh", "KsKh", "QdQc"}, 2);
    const double aces2 = chance({"AsAh", "QdQc"}, 0);
    CHECK(ev->seats[0].seat == 0);
    CHECK(ev->seats[0].expected == doctest::Approx(90 * aces3 / 100 + 60 * aces2 / 100));
    CHECK(ev->seats[1].expected == doctest::Approx(90 * kings3 / 100));
    CHECK(ev->seats[2].expected == doctest::Approx(90 * queens3 / 100 + 60 * (100 - aces2) / 100));
    CHECK(ev->seats[0].equity == doctest::Approx(aces3));
    double expected = 0;
    Chips won{};
    for (const AllInShare& s : ev->seats) {
        expected += s.expected;
        won += s.won;
    }
    CHECK(expected == doctest::Approx(150)); // every chip of the pots, in expectation
    CHECK(won == Chips(150));
}

TEST_CASE("all-in EV: none without a show before the cards to come, nor for a game without odds") {
    Table folded("holdem", Structure::no_limit, {100, 100}, 1);
    folded.start();
    folded.act(1, ActionType::raise, 10);
    folded.act(0, ActionType::fold);
    CHECK_FALSE(all_in_ev(*folded.state.config, folded.events, folded.state, {}).has_value());

    Table draw("draw", Structure::no_limit, {20, 100}, 1);
    draw.start();
    draw.act(1, ActionType::raise, 20);
    draw.act(0, ActionType::call);
    while (draw.state.phase != Phase::done) {
        const Legal& l = draw.legal();
        if (l.phase == Phase::drawing)
            draw.act(l.seat, ActionType::discard, 0, "");
        else
            draw.act(l.seat, l.check ? ActionType::check : ActionType::call);
    }
    CHECK_FALSE(odds_query(*draw.state.config).has_value());
    CHECK_FALSE(all_in_ev(*draw.state.config, draw.events, draw.state, {}).has_value());
}

TEST_CASE("street odds: the hands known at a point, or one's own against a random hand") {
    Table t("holdem", Structure::no_limit, {100, 100}, 1);
    t.deck("AsKs 7c2d QsJs9h");
    t.start();
    t.act(1, ActionType::call);
    t.act(0, ActionType::check); // the flop: Qs Js 9h
    REQUIRE(t.of(EventType::deal_board).size() == 1);
    std::array<std::vector<Card>, kMaxSeats> known;
    known[0] = Deck::standard().parse_cards("AsKs").value();
    // One hand known: nothing, unless against a random hand.
    CHECK_FALSE(street_odds(*t.state.config, t.events, known, {}).has_value());
    const auto mine = street_odds(*t.state.config, t.events, known, {}, true);
    REQUIRE(mine.has_value());
    CHECK(mine->street == 1);
    CHECK(mine->seats == std::vector<int>{0, -1});
    auto q = odds::make_query(odds::Game::holdem, std::vector<std::string>{"AsKs", "random"},
                              "QsJs9h", "")
                 .value();
    CHECK(mine->equity.equity[0] == doctest::Approx(odds::equity(q).value().equity[0]));
    // Both known: their chances with the board so far.
    known[1] = Deck::standard().parse_cards("7c2d").value();
    const auto both = street_odds(*t.state.config, t.events, known, {});
    REQUIRE(both.has_value());
    auto flop =
        odds::make_query(odds::Game::holdem, std::vector<std::string>{"AsKs", "7c2d"}, "QsJs9h", "")
            .value();
    CHECK(both->equity.equity[0] == doctest::Approx(odds::equity(flop).value().equity[0]));
    CHECK(both->equity.showdowns == 990); // C(45, 2): the turn and the river
}
