// The poker table's messages: the names of the betting engine's events and actions (one table
// each), and an event as one recipient may see it.
#pragma once

#include "poker/hand.h"
#include "rankings/ranking.h"
#include "refusal.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

namespace felt::protocol {

using json = nlohmann::json;

// "ante", "deal_down", ..., as docs/betting.md names them.
const char* event_name(poker::EventType t);
// "fold", "check", "call", "bet", "raise", "bring_in", "discard", "rollover".
const char* action_name(poker::ActionType t);
std::optional<poker::ActionType> parse_action_type(std::string_view name);

// An `act` at a poker table, for `seat`: {"action": "raise", "amount": 40}, {"action": "discard",
// "cards": "2c 7d"}. Refusals: bad_request (no such action, a field of the wrong type) and
// bad_card. Whether the action is legal is the engine's to judge.
Outcome<poker::Action> parse_poker_action(const json& body, int seat, const Ranking& r);
// What the seat to act may do (docs/protocol.md, `legal`).
json legal_json(const poker::Legal& l);

// Whether the seat (-1: a spectator) may see the event's cards.
bool visible_to(const poker::Event& e, int seat);
// An event as JSON: its kind, seat, amount, pot and card count, and the cards when shown.
json event_json(const poker::Event& e, const Ranking& r, bool show_cards);

} // namespace felt::protocol
