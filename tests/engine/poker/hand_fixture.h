// A hand of the betting engine under test, shared by its test files: configuration helpers,
// actions that must succeed, actions that must fail and change nothing.
#pragma once

#include "cards/deck.h"
#include "poker/hand.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace felt::poker::testing {

// A hand under test: configuration helpers, actions that must succeed, actions that must fail.
struct Table {
    HandConfig config;
    HandState state;
    std::vector<Event> events; // every event so far

    Table(const char* variant, Structure structure, std::vector<std::int64_t> stacks,
          int button = 0, const char* ranking = "standard") {
        config.variant = builtin_variant(variant);
        REQUIRE(config.variant);
        config.structure = structure;
        // "standard" names the variant's own ranking (a mixed game's).
        const std::string name = ranking == std::string_view("standard") ? config.variant->ranking
                                                                         : std::string(ranking);
        config.ranking = std::shared_ptr<const Ranking>(make_ranking(name).value());
        config.seats = static_cast<int>(stacks.size());
        for (std::size_t i = 0; i < stacks.size(); ++i) config.stacks[i] = Chips(stacks[i]);
        config.button = button;
        config.stakes.small_blind = Chips(1);
        config.stakes.big_blind = Chips(2);
        config.stakes.small_bet = Chips(2);
        config.stakes.big_bet = Chips(4);
    }

    // The deck: these cards first, in dealing order, then the rest of the pack.
    void deck(const char* first) {
        config.deck = Deck::standard().parse_cards(first).value();
        for (Card c : config.ranking->cards())
            if (std::find(config.deck.begin(), config.deck.end(), c) == config.deck.end())
                config.deck.push_back(c);
    }

    void start() {
        if (config.deck.empty()) deck("");
        auto s = start_hand(std::make_shared<HandConfig>(config));
        REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
        state = s.value().state;
        events = s.value().events;
    }

    void act(int seat, ActionType t, std::int64_t amount = 0, const char* cards = "") {
        Action a{t, seat, Chips(amount), Deck::standard().parse_cards(cards).value()};
        auto r = apply(state, a);
        REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
        state = r.value().state;
        events.insert(events.end(), r.value().events.begin(), r.value().events.end());
    }

    // The action is refused with `code`, and nothing changes.
    void refuse(int seat, ActionType t, std::int64_t amount, Errc code, const char* cards = "") {
        Action a{t, seat, Chips(amount), Deck::standard().parse_cards(cards).value()};
        const HandState before = state;
        auto r = apply(state, a);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == code);
        CHECK(!r.error().message.empty());
        std::vector<Event> none;
        HandState copy = state;
        CHECK(apply_in_place(copy, a, none).has_value());
        CHECK(none.empty());
        CHECK(copy.actor == before.actor);
        CHECK(chips_in_play(copy) == chips_in_play(before));
        for (int i = 0; i < config.seats; ++i) {
            CHECK(copy.seats[static_cast<std::size_t>(i)].stack ==
                  before.seats[static_cast<std::size_t>(i)].stack);
            CHECK(copy.seats[static_cast<std::size_t>(i)].bet ==
                  before.seats[static_cast<std::size_t>(i)].bet);
        }
    }

    Legal legal() const { return legal_actions(state); }
    Chips stack(int seat) const { return state.seats[static_cast<std::size_t>(seat)].stack; }

    std::vector<Event> of(EventType t) const {
        std::vector<Event> out;
        for (const Event& e : events)
            if (e.type == t) out.push_back(e);
        return out;
    }
};

// Three players at a fixed-limit stud game (stud, Mexican stud, razz, stud hi-lo): ante 1, bring-in
// 1, bets 4 and 8.
inline Table fixed_limit_stud(const char* variant) {
    Table t(variant, Structure::fixed_limit, {100, 100, 100}, 0);
    t.config.stakes = Stakes{};
    t.config.stakes.ante = Chips(1);
    t.config.stakes.bring_in = Chips(1);
    t.config.stakes.small_bet = Chips(4);
    t.config.stakes.big_bet = Chips(8);
    return t;
}

} // namespace felt::poker::testing
