// The leap rummy table's messages (docs/protocol.md, "Leap rummy tables"): its actions, both
// ways, and its events as the table tells them. No I/O here.
#pragma once

#include "leap/leap_game.h"
#include "refusal.h"

#include <nlohmann/json.hpp>

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

} // namespace felt::protocol
