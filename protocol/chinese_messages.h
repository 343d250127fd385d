// The Chinese poker table's messages (docs/protocol.md, "Chinese poker tables"): a seat's split
// both ways, as `act` sends it and as the deal's end reveals it. No I/O here.
#pragma once

#include "cards/deck.h"
#include "chinese/chinese.h"
#include "protocol/refusal.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace felt::protocol {

using json = nlohmann::json;

// The pack a Chinese poker table deals, and cards of it as text ("As Kd 2c").
const Deck& chinese_pack();
std::string chinese_cards(std::span<const Card> cards);

// Rows as a request gives them, each empty when not given.
struct ChineseRows {
    std::vector<Card> front, middle, back;
};
// front, middle and back from a request: each a string of exactly its row's cards; with `all`
// false a row may be left out (or null). Refusals: bad_request, bad_card, wrong_count.
Outcome<ChineseRows> parse_chinese_rows(const json& body, bool all);

// A `preview`'s answer: each given row's category and words, the foul the engine finds in the
// row order so far (if any), and the special hands the cards can declare, each with a split.
struct ChineseRowValues {
    std::optional<HandValue> front, middle, back;
};
json chinese_preview_json(const ChineseRowValues& values, const std::optional<Error>& foul,
                          std::span<const chinese::Arrangement> specials);

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

// The table messages of a Chinese poker deal (docs/protocol.md, "Table messages of a Chinese
// poker table"), without the envelope, which the table adds; seats are table seats. Each is
// also, with its visibility, a line of the deal's record.
json chinese_deal_json(int hand, std::int64_t hand_id, int dealer, const std::vector<int>& seats,
                       std::span<const Chips> stacks, const std::string& commitment,
                       int deadline_ms);
// A seat's 13 cards: its own copy of the deal, and its record ("deal").
json chinese_cards_json(std::span<const Card> cards);
json chinese_dealt_json(int seat, std::span<const Card> cards);
json chinese_submitted_json(int hand, int seat, bool by_server);
// A `hint`'s answer: the arrangements, best first, with their expected units.
json chinese_hint_json(std::span<const chinese::Arrangement> best);
// At the end: a seat's split as revealed, a payment between table seats (`seats`: the table seat
// of each player the engine settled), and the deal's end.
json chinese_reveal_json(const chinese::Player& p, int seat, bool by_server);
json chinese_payment_json(const chinese::Payment& p, const std::vector<int>& seats);
// What a pair actually paid in one pass: the net of its payments there ("settled").
json chinese_settled_json(const chinese::PairSettlement& p, const std::vector<int>& seats);
// The deal's end in its record: every seat's net and rake.
json chinese_totals_json(std::span<const Chips> net, std::span<const Chips> rake);
json chinese_deal_end_json(int hand, std::int64_t hand_id, json arrangements, json payments,
                           json settled, std::span<const Chips> net, std::span<const Chips> rake);
// The running deal in a snapshot; `own` (the recipient's cards and split, if dealt in) added by
// chinese_own_view.
json chinese_deal_view_json(int hand, std::int64_t hand_id, int dealer,
                            const std::vector<int>& seats, const std::string& commitment);
void chinese_own_view(std::span<const Card> cards, const chinese::Player* split, json& view);

} // namespace felt::protocol
