// protocol/poker_messages: the pots a client is shown, against the chips each seat put in.
#include "poker_messages.h"

#include <doctest/doctest.h>

using namespace felt;
using namespace felt::poker;
using nlohmann::json;

namespace {

HandState start(std::vector<std::int64_t> stacks) {
    HandConfig c;
    c.variant = builtin_variant("holdem");
    c.structure = Structure::no_limit;
    c.ranking = std::shared_ptr<const Ranking>(make_ranking("standard").value());
    c.seats = static_cast<int>(stacks.size());
    for (std::size_t i = 0; i < stacks.size(); ++i) c.stacks[i] = Chips(stacks[i]);
    c.stakes.small_blind = Chips(1);
    c.stakes.big_blind = Chips(2);
    c.deck = c.ranking->cards();
    auto s = start_hand(std::make_shared<HandConfig>(c));
    REQUIRE(s.ok());
    return s.value().state;
}

void act(HandState& s, int seat, ActionType t, std::int64_t amount = 0) {
    auto r = apply(s, Action{t, seat, Chips(amount), {}});
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    s = r.value().state;
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
