// An open-face Chinese poker table's configuration (create_table with "game": "open-face"):
// decoding it strictly, and writing it for the lobby and the database.
#pragma once

#include "openface/openface.h"
#include "protocol/config_reader.h"
#include "protocol/table_bots.h"

#include <optional>

namespace felt::protocol {

struct OpenFaceConfig {
    int seats = 3;             // pineapple 2 to 3, classic 2 to 4
    openface::Options options; // variant, progressive, stay, unit, chip_limit (on), rake
    bool hints = true;
    Chips min_buy_in, max_buy_in;
    int decision_ms = 30'000; // time to place a street (a Fantasyland hand: three times that)
    int sit_out_after = 3;
    int hand_delay_ms = 1'000;
    std::optional<TableBots> bots;

    // The most points one player can lose in a hand to each opponent: a foul (6) and the
    // opponent's largest royalties (22 + 50 + 25).
    static constexpr int kMaxLossPoints = 103;
    // The chips a stack needs to be dealt in: 1, or with the chip limit off, enough to cover the
    // most the player can lose against everyone, and the rake.
    Chips stake_needed() const;
    json to_json() const;
};

// Refused: a field of the wrong type, out of range or unknown; an unknown variant or stay rule;
// more seats than the variant deals (pineapple 3, classic 4); progressive Fantasyland at four
// seats; a buy-in below what a hand can cost without the chip limit.
Outcome<OpenFaceConfig> decode_openface_config(const json& body);

} // namespace felt::protocol
