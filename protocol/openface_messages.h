// The open-face table's messages (docs/protocol.md, "Open-face tables"): a placement both ways,
// rows, and the hand's messages from its deal to its end. No I/O here.
#pragma once

#include "cards/deck.h"
#include "openface/fantasyland.h"
#include "openface/openface.h"
#include "protocol/refusal.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace felt::protocol {

using json = nlohmann::json;

const Deck& openface_pack();
std::string openface_cards(std::span<const Card> cards);

// A placement as `act` sends it: "front", "middle", "back" and "discard", each a string of cards,
// any left out (or null, or "") for none. Refusals: bad_request, bad_card.
Outcome<openface::Placement> parse_openface_placement(const json& body);
json openface_placement_json(const openface::Placement& p);

// Rows as the protocol writes them: {"front", "middle", "back"}, cards as text.
json openface_board_json(const openface::Board& b);
// Rows from a request (preview): as parse_openface_placement, without "discard".
Outcome<openface::Board> parse_openface_board(const json& body);

// A row's hand in words, as far as it is filled: "a pair of kings", "three sevens", "flush, ace
// high" (a full row), "" for an empty row.
std::string openface_row_words(std::span<const Card> row);

// A `preview`'s answer for rows (placed and proposed): each row's words and royalty, the foul
// the rows already hold (full rows out of order; null: none), and for full rows the Fantasyland
// cards they earn (`in_fantasyland`: whether this hand is one).
json openface_preview_json(const openface::Board& b, const openface::Options& o,
                           bool in_fantasyland, int players);

} // namespace felt::protocol
