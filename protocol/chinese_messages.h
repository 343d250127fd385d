// The Chinese poker table's messages (docs/protocol.md, "Chinese poker tables"): a seat's split
// both ways, as `act` sends it and as the deal's end reveals it. No I/O here.
#pragma once

#include "cards/deck.h"
#include "chinese/chinese.h"
#include "refusal.h"

#include <nlohmann/json.hpp>

#include <span>
#include <string>

namespace felt::protocol {

using json = nlohmann::json;

// The pack a Chinese poker table deals, and cards of it as text ("As Kd 2c").
const Deck& chinese_pack();
std::string chinese_cards(std::span<const Card> cards);

// A seat's split as the protocol writes it: {"front", "middle", "back", "declare" (a special
// hand's name, or null), "surrender"}.
json chinese_split_json(const chinese::Player& p);
// The rows and the declared special hand of a split (the inverse of chinese_split_json; the
// surrender flag is not read). Refusals: bad_request, bad_card, wrong_count (a row of the wrong
// size), bad_declare (no special hand of that name). Whether the split fouls, and whether the
// table's profile pays what it declares, are the table's to judge.
Outcome<chinese::Player> parse_chinese_split(const json& body);
// An `act` at a Chinese poker table: {"action": "split", ...rows} (parse_chinese_split) or
// {"action": "surrender"} (a Player with `surrender` set and no rows). Refusals: bad_request and
// those of parse_chinese_split.
Outcome<chinese::Player> parse_chinese_action(const json& body);

} // namespace felt::protocol
