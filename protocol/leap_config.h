// A leap rummy table's configuration (create_table with "game": "leap"): decoding it strictly,
// and writing it for the lobby and the database.
#pragma once

#include "leap/leap_game.h"
#include "protocol/config_reader.h"
#include "protocol/table_bots.h"

namespace felt::protocol {

struct LeapConfig {
    int seats = 4;
    leap::Rules rules;
    Chips chips_per_point; // 0: a game for points alone
    Chips min_buy_in, max_buy_in;
    int turn_ms = 30'000;  // time for a whole turn before the server plays it
    int time_bank_ms = 0;  // extra time each seat may spend, in all, once turn_ms is up
    int retire_after = 3;  // time-outs in a row that retire a player
    int sit_out_after = 3; // games a disconnected player misses before being sat out
    int hand_delay_ms = 1'000;
    std::optional<TableBots> bots; // the server's bots the table asks for (written only then)

    // With chips at stake a player needs one chip to be dealt in (they never pay more than they
    // have); without, none.
    Chips stake_needed() const { return Chips(chips_per_point > 0 ? 1 : 0); }
    json to_json() const;
};

// Refused: a field of the wrong type, out of range or unknown; a deck that cannot deal every
// number of players the table seats (under leaptokens: more seats than leaps); a buy-in for a
// game of points alone. Without "seats", a table under leaptokens seats min(4, leaps).
Outcome<LeapConfig> decode_leap_config(const json& body);
// The same for a stored game, under the edition of the rules it was played under (see kRules).
Outcome<LeapConfig> decode_stored_leap_config(const json& body, int rules);

} // namespace felt::protocol
