// The leap rummy table's messages (docs/protocol.md, "Leap rummy tables"): its actions, both
// ways, and its events as the table tells them. No I/O here.
#pragma once

#include "leap/leap_game.h"
#include "protocol/refusal.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace felt::protocol {

using json = nlohmann::json;

// "turn", "melding", "over".
const char* phase_name(leap::Phase p);
// The leaps of a mask, as a list of their numbers.
json leap_list(leap::LeapMask m);

// An action as the protocol and the game log write it ({"action": "meld", "cards": "3h 5h 7h"},
// ...), for the engine player `player`. Refusals: bad_request, bad_card.
Outcome<leap::Action> parse_leap_action(const leap::Table& t, const json& body, int player);
// The action as the protocol writes it (the inverse of parse_leap_action).
json leap_action_json(const leap::Table& t, const leap::Action& a);

// Whether the table tells the event one by one: not the deal (its own message) nor the end.
bool leap_event_told(const leap::Event& e);
// An event the table tells, as everyone watching sees it, in game `hand`, with the engine's
// player named by table seat `seat`.
json leap_event_json(const leap::Table& t, const leap::Event& e, int seat, int hand);
// What the owner's copy adds, for the events whose cards only the owner sees (a draw, a
// discard): {"cards": ...} or {"card": ...}; null for the others.
json leap_event_own(const leap::Table& t, const leap::Event& e);

// The table messages of a leap rummy game (docs/protocol.md, "Table messages of a leap rummy
// table") without the envelope, which the table adds. `players` holds the table seat of each
// engine player (they are numbered from the dealer's left); `seats` is the table's seat count.
json leap_deal_json(int hand, std::int64_t hand_id, int dealer, const std::vector<int>& players,
                    std::span<const Chips> stacks, int hand_size, int stock,
                    const std::string& commitment);
// A player's dealt hand: their own copy of the deal, and its record ("deal").
json leap_cards_json(const std::string& cards);
json leap_dealt_json(int seat, const std::string& cards);
// Whose turn, the stock, hand sizes, scores and retirements, by table seat.
json leap_public_json(const leap::State& st, const std::vector<int>& players, int seats);
// The turn's announcement; the clock's fields are the table's to add.
json leap_turn_json(const leap::State& st, const std::vector<int>& players, int seats, int hand);
// A meld as the table shows it: id, owner (a table seat), leap, cards in order, points.
json leap_meld_json(const leap::Table& t, const leap::Meld& m, int seat);
// A `preview`'s answer for the player in table seat `seat`; `refused`: the engine's reason, in
// the table's words, when it would refuse the meld or extension.
json leap_preview_json(const leap::Table& t, const leap::Preview& p, int seat,
                       const std::optional<Refusal>& refused);
// The game in a snapshot, with `viewer`'s own hand (an engine player; -1: none).
json leap_game_view_json(const leap::State& st, const std::vector<int>& players, int seats,
                         int hand, std::int64_t hand_id, int dealer, const std::string& commitment,
                         int deadline_ms, int viewer);
// The game's end: each table seat's score (null: not in the game) and net.
json leap_game_end_json(int hand, std::int64_t hand_id,
                        const std::vector<std::optional<int>>& scores, std::span<const Chips> net);

// The game's record for the history: an action by "player", "clock" or "server" (a discard is
// its owner's), a draw (its owner's) and a retirement, by table seat; and the end.
std::string leap_action_record(const leap::Table& t, const leap::Action& a, int seat,
                               const char* by);
std::string leap_drew_record(const leap::Table& t, const leap::Event& e, int seat);
std::string leap_retired_record(const leap::Event& e, int seat);
std::string leap_end_record(const std::vector<std::optional<int>>& scores,
                            std::span<const Chips> net);

} // namespace felt::protocol
