// A poker table's configuration (create_table with "game": "poker", the default): decoding it
// strictly, and writing it for the lobby and the database.
#pragma once

#include "poker/hand.h"
#include "protocol/config_reader.h"
#include "protocol/table_bots.h"

#include <optional>
#include <string>
#include <utility>

namespace felt::protocol {

struct PokerConfig {
    std::string variant = "holdem";
    std::string structure = "no-limit";
    std::string ranking = "standard";
    std::string wild = "none";
    int seats = 6;
    poker::Stakes stakes;
    poker::Chips min_buy_in{}, max_buy_in{};
    int decision_ms = 30'000;  // time to act before the server acts (check, else fold)
    int time_bank_ms = 0;      // extra time each seat may spend, in all, once decision_ms is up
    int sit_out_after = 3;     // hands a disconnected player misses before being sat out
    int hand_delay_ms = 1'000; // pause between hands
    // The pause after a hand that ended in a showdown, to read it: by default four times
    // hand_delay_ms.
    int showdown_delay_ms = 4'000;
    // After an all-in, the streets left are dealt one at a time, this far apart: by default
    // hand_delay_ms.
    int runout_ms = 1'000;
    // Fixed-limit stud and Mexican stud only (written only for them): a pair showing on fourth
    // street, "big_bet", "choice" or "off" (poker::OpenPair).
    std::string open_pair = "big_bet";
    std::string big_bet_from = "fifth"; // fixed-limit stud and Mexican stud: "fifth" or "seventh"
    int draws = 4;                      // shrinking draw: the draws a hand plays, 1 to 4
    // Five-card draw only (written only for it): whether `hint` answers with the best exchange.
    bool hints = true;
    // Omaha and Omaha hi-lo only (written only for them): hole cards each, 4 to 6 (six seat six
    // players at most).
    int hole_cards = 4;
    // Short deck only (written only for it): three of a kind beats a straight (PokerKit's order,
    // the default, has the straight above).
    bool trips_beat_straight = false;
    // The server's bots the table asks for (written only when asked).
    std::optional<TableBots> bots;

    json to_json() const;
};

// A configuration with defaults: blinds 1/2 (stud: ante 1, bring-in 2, bets 4/8), buy-ins of 40 to
// 200 big blinds (or big bets); and the engine's configuration of a hand at that table. Refused:
// a field of the wrong type, out of range or unknown, or a combination the engine cannot deal.
// The stakes may be fields of their own (a request) or one "stakes" object (to_json()).
Outcome<std::pair<PokerConfig, poker::HandConfig>> decode_poker_config(const json& request);

} // namespace felt::protocol
