// The table messages every game shares (docs/protocol.md, "Table messages"), without the envelope
// (type, table, seq), which the table adds; seats are table seats, -1 for a spectator.
#pragma once

#include "chips.h"
#include "protocol/fairness.h"
#include "protocol/refusal.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace felt::protocol {

using json = nlohmann::json;

json seated_json(int seat, const std::string& name, Chips stack);
json left_json(int seat, const std::string& name, Chips stack);
json chat_json(int seat, const std::string& name, const std::string& text);
// Why a seat sits out: the player chose to, or the clock played for them, disconnected, in
// `sit_out_after` hands in a row.
enum class SitOut { chosen, missed_hands };
// "sitting_out", with the reason, or "sitting_in" (back).
json sitting_out_json(int seat, SitOut why);
json sitting_in_json(int seat);
// The seat's player connected again, or their connection went (the seat is held).
json connection_json(int seat, bool connected);
// The seat's player added `amount` chips from their balance between hands.
json topped_up_json(int seat, const std::string& name, Chips amount, Chips stack);
json time_bank_json(int hand, int seat, int bank_ms);
// The seat's time (and time bank) ran out: the server acts for it next (poker: check, else fold).
json timed_out_json(int hand, int seat);
// The table closed (reason "idle": nobody sat at it for the idle time).
json closed_json(const char* reason);
json hand_void_json(int hand, std::int64_t hand_id, const char* reason,
                    std::span<const Chips> stacks);
// The end of a hand (hand_end, deal_end, game_end, as its game writes it) completed with every
// seat's stack and the fairness reveal as everyone sees it (`leaves`: `sealed.leaves()`); and a
// seat's own part, merged into that in the copy of a seat dealt in: {"fairness": {"yours": the
// positions it saw}}, which makes the seat's `fairness` reveal_json's for that seat.
void add_reveal(json& end, std::span<const Chips> stacks, const Sealed& sealed,
                const std::vector<std::string>& leaves, std::span<const Sight> seen,
                bool seed_used);
json own_reveal(const Sealed& sealed, std::span<const Sight> seen, int seat);
// A snapshot's common fields: a seat's, and the whole table's head.
struct SeatHead {
    int seat = 0;
    const std::string& name;
    Chips stack{};
    bool sitting_out = false;
    bool connected = true;
    int time_bank_ms = 0;
};
json seat_json(const SeatHead& s);
json snapshot_json(std::int64_t table, std::int64_t seq, json config, json seats, int your_seat);

// The lobby (docs/protocol.md, "tables" and "watch_lobby"): a table's line, and what is pushed to
// the connections that watch the lobby when a line changes or a table closes.
json lobby_line_json(std::int64_t table, json config, int taken, int watching);
json lobby_changed_json(json line);
json lobby_closed_json(std::int64_t table);

} // namespace felt::protocol
