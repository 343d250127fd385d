// A Chinese poker table's configuration (create_table with "game": "chinese"): decoding it
// strictly, and writing it for the lobby and the database.
#pragma once

#include "chinese/chinese.h"
#include "protocol/config_reader.h"
#include "protocol/table_bots.h"

#include <string>

namespace felt::protocol {

struct ChineseConfig {
    std::string profile = "classic";
    int seats = 4;
    chinese::Options options; // chip_limit on, unit 1, rake 0, no aces
    bool banker = false;      // the dealer is the bank (always so under the banker profile)
    bool surrender = false;   // the scoop profile only
    bool hints = true;
    Chips min_buy_in, max_buy_in;
    int decision_ms = 60'000; // time to submit a split before the engine arranges one
    int sit_out_after = 3;
    int hand_delay_ms = 1'000;
    std::optional<TableBots> bots; // the server's bots the table asks for (written only then)

    const chinese::Profile& rules() const { return *chinese::find_profile(profile); }
    // The chips a stack needs to be dealt in: 1, or with the chip limit off, enough to cover the
    // most the player can lose (chinese::max_loss_units) and the rake.
    Chips stake_needed() const;
    json to_json() const;
};

// Refused: a field of the wrong type, out of range or unknown; an unknown profile; surrender
// outside the scoop profile; a buy-in below what a deal can cost without the chip limit.
Outcome<ChineseConfig> decode_chinese_config(const json& body);

} // namespace felt::protocol
