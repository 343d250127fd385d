// The table messages every game shares (docs/protocol.md, "Table messages"), without the envelope
// (type, table, seq), which the table adds; seats are table seats, -1 for a spectator.
#pragma once

#include "chips.h"
#include "fairness.h"
#include "refusal.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace felt::protocol {

using json = nlohmann::json;

json seated_json(int seat, const std::string& name, Chips stack);
json left_json(int seat, const std::string& name, Chips stack);
json chat_json(int seat, const std::string& name, const std::string& text);
// "sitting_out" (sat out after missed hands) or "sitting_in" (back).
json sitting_json(int seat, bool out);
json time_bank_json(int hand, int seat, int bank_ms);
// The table closed (reason "idle": nobody sat at it for the idle time).
json closed_json(const char* reason);
json hand_void_json(int hand, std::int64_t hand_id, const char* reason,
                    std::span<const Chips> stacks);
// The end of a hand (hand_end, deal_end, game_end, as its game writes it) completed with every
// seat's stack and the fairness reveal as everyone sees it; and what replaces it in the copy of a
// seat dealt in (`fairness` with the seat's own cards).
void add_reveal(json& end, std::span<const Chips> stacks, const Sealed& sealed,
                std::span<const Sight> seen, bool seed_used);
json own_reveal(const Sealed& sealed, std::span<const Sight> seen, bool seed_used, int seat);
// A snapshot's common fields: a seat's, and the whole table's head.
json seat_json(int seat, const std::string& name, Chips stack, bool sitting_out, int time_bank_ms);
json snapshot_json(std::int64_t table, std::int64_t seq, json config, json seats, int your_seat);

} // namespace felt::protocol
