// protocol/poker_messages: the pots a client is shown, against the chips each seat put in.
#include "protocol/poker_messages.h"

#include "engine/poker/hand_fixture.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>

using namespace felt;
using namespace felt::poker;
using nlohmann::json;

namespace {

HandState start(std::vector<std::int64_t> stacks, const char* first = "") {
    HandConfig c;
    c.variant = builtin_variant("holdem");
    c.structure = Structure::no_limit;
    c.ranking = std::shared_ptr<const Ranking>(make_ranking("standard").value());
    c.seats = static_cast<int>(stacks.size());
    for (std::size_t i = 0; i < stacks.size(); ++i) c.stacks[i] = Chips(stacks[i]);
    c.stakes.small_blind = Chips(1);
    c.stakes.big_blind = Chips(2);
    // The deck: these cards first, in dealing order, then the rest of the pack.
    c.deck = Deck::standard().parse_cards(first).value();
    for (Card card : c.ranking->cards())
        if (std::find(c.deck.begin(), c.deck.end(), card) == c.deck.end()) c.deck.push_back(card);
    auto s = start_hand(std::make_shared<HandConfig>(c));
    REQUIRE(s.ok());
    return s.value().state;
}

std::vector<Event> act(HandState& s, int seat, ActionType t, std::int64_t amount = 0) {
    auto r = apply(s, Action{t, seat, Chips(amount), {}});
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    s = r.value().state;
    return r.value().events;
}

} // namespace

TEST_CASE("poker messages: the pots shown are the past rounds' chips, cut at each all-in") {
    // Button 0, blinds from seats 1 and 2; seat 0 has 20 chips.
    HandState s = start({20, 100, 100});
    CHECK(protocol::pots_json(s, 3).empty()); // the blinds are bets, not yet in the middle
    act(s, 0, ActionType::raise, 20);         // all in
    act(s, 1, ActionType::call);
    CHECK(protocol::pots_json(s, 3).empty());
    act(s, 2, ActionType::call); // the round ends: 60 in the middle, everyone's
    CHECK(protocol::pots_json(s, 3) == json::parse(R"([{"amount": 60, "eligible": [0, 1, 2]}])"));
    act(s, 1, ActionType::bet, 30);
    // Seat 1's bet is in front of it, not in a pot, until the round ends.
    CHECK(protocol::pots_json(s, 3) == json::parse(R"([{"amount": 60, "eligible": [0, 1, 2]}])"));
    act(s, 2, ActionType::call);
    CHECK(protocol::pots_json(s, 3) == json::parse(R"([{"amount": 60, "eligible": [0, 1, 2]},
                                                       {"amount": 60, "eligible": [1, 2]}])"));
}

TEST_CASE("poker messages: a seat that folds leaves its chips in the pot, and is out of it") {
    HandState s = start({100, 100, 100});
    act(s, 0, ActionType::call);
    act(s, 1, ActionType::call);
    act(s, 2, ActionType::check);
    CHECK(protocol::pots_json(s, 3) == json::parse(R"([{"amount": 6, "eligible": [0, 1, 2]}])"));
    act(s, 1, ActionType::bet, 10);
    act(s, 2, ActionType::call);
    act(s, 0, ActionType::fold);
    CHECK(protocol::pots_json(s, 3) == json::parse(R"([{"amount": 26, "eligible": [1, 2]}])"));
}

TEST_CASE("poker messages: a showdown names what each shown hand makes with the board") {
    // Heads up, button 0: seat 1 is dealt first (As Ad), then seat 0 (Kh Kd); the board follows.
    HandState s = start({100, 100}, "As Ad Kh Kd Ac 2c 2h 7s 9d");
    act(s, 0, ActionType::call);
    act(s, 1, ActionType::check);
    for (int street = 0; street < 3; ++street) {
        act(s, 1, ActionType::check);
        std::vector<Event> last = act(s, 0, ActionType::check);
        if (street < 2) continue;
        REQUIRE(s.phase == Phase::done);
        const auto ranking = make_ranking("standard").value();
        json update = protocol::update_json(last, nullptr, *ranking, -1);
        protocol::add_show_categories(update, last, s, *ranking);
        std::map<std::string, std::string> made; // cards shown -> category
        int shows = 0;
        for (const json& e : update["events"])
            if (e["kind"] == "show") {
                ++shows;
                made[e["cards"]] = e["category"];
            } else {
                CHECK_FALSE(e.contains("category"));
            }
        CHECK(shows == 2);
        CHECK(made["As Ad"] == "full_house"); // aces full of deuces
        CHECK(made["Kh Kd"] == "two_pair");   // kings and deuces
    }
}

TEST_CASE("poker messages: hands shown together are told apart by the kickers that decide") {
    // Seat 1: Ah Qc, seat 0: As Jd; the board Kh 7s 4d 2c 9h. Both are ace high with a king.
    HandState s = start({100, 100}, "Ah Qc As Jd Kh 7s 4d 2c 9h");
    act(s, 0, ActionType::call);
    act(s, 1, ActionType::check);
    std::vector<Event> last;
    for (int street = 0; street < 3; ++street) {
        act(s, 1, ActionType::check);
        last = act(s, 0, ActionType::check);
    }
    REQUIRE(s.phase == Phase::done);
    const auto ranking = make_ranking("standard").value();
    json update = protocol::update_json(last, nullptr, *ranking, -1);
    protocol::add_show_categories(update, last, s, *ranking);
    std::map<std::string, std::string> made; // cards shown -> the hand in words
    for (const json& e : update["events"])
        if (e["kind"] == "show") made[e["cards"]] = e["made"];
    CHECK(made["Ah Qc"] == "ace high, king-queen kicker");
    CHECK(made["As Jd"] == "ace high, king-jack kicker");
    // The text written straight for the table says the same.
    const protocol::UpdateText text(last, nullptr, *ranking, s, std::nullopt);
    CHECK(json::parse(text.events(-1)) == update["events"]);
}

TEST_CASE("poker messages: a hi-lo showdown names each half, and each win says its half") {
    // Omaha hi-lo: seat 0 calls, the small blind folds, the big blind checks. Seat 2 makes
    // 7-4-3-2-A with Ah 4d, seat 0 three kings with Ks and a nine.
    poker::testing::Table t("omaha-hilo", Structure::fixed_limit, {100, 100, 100}, 0);
    t.deck("8h 8d 6c 6h  Ah 4d Qc Jc  Ks Td 9h 9c  2s 3s 7d  Kh  Kc");
    t.start();
    t.act(0, ActionType::call);
    t.act(1, ActionType::fold);
    std::vector<Event> last;
    while (t.state.phase == Phase::betting) {
        const Legal l = t.legal();
        auto r = apply(t.state, Action{ActionType::check, l.seat, {}, {}});
        REQUIRE(r.ok());
        t.state = r.value().state;
        last = r.value().events;
    }
    REQUIRE(t.state.phase == Phase::done);
    json update = protocol::update_json(last, nullptr, *t.config.ranking, -1);
    protocol::add_show_categories(update, last, t.state, *t.config.ranking);
    std::map<std::string, json> shown; // cards -> the show event
    std::vector<std::pair<int, std::string>> halves;
    for (const json& e : update["events"]) {
        if (e["kind"] == "show") shown[e["cards"]] = e;
        if (e["kind"] == "win") halves.emplace_back(e["seat"], e.value("half", ""));
    }
    // The high hand is Omaha's: two of the hole cards, three of the board.
    CHECK(shown["Ks Td 9h 9c"]["category"] == "three_of_a_kind");
    CHECK_FALSE(shown["Ks Td 9h 9c"].contains("low"));
    CHECK(shown["Ah 4d Qc Jc"]["category"] == "one_pair"); // kings on the board, an ace, a queen
    CHECK(shown["Ah 4d Qc Jc"]["low"] == "a seven-four low");
    CHECK(halves == std::vector<std::pair<int, std::string>>{{0, "high"}, {2, "low"}});
    // The text written once for every reader says the same.
    protocol::UpdateText text(last, nullptr, *t.config.ranking, t.state, std::nullopt);
    const std::string everyone = text.events(-1);
    CHECK(json::parse(everyone) == update["events"]);
}
