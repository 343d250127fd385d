// The server's bots a table asks for (docs/bots.md, "Bots at a table"): a field of poker's and
// Chinese poker's configurations, `"bots": {"seats": N, "level": "fair", "leave_for_people":
// true}`, read strictly and written back only when asked.
#pragma once

#include "protocol/config_reader.h"

#include <optional>
#include <string>

namespace felt::protocol {

struct TableBots {
    int seats = 1;              // bots at most, 1 to the table's seats less one
    std::string level = "fair"; // easy, fair or strong (bots/poker_bot.h)
    // Bots keep a seat free for the next person while they can, getting up between hands.
    bool leave_for_people = true;

    json to_json() const;
};

// Reads the configuration's "bots" (if any) into `out`, for a table of `seats`; a wrong one is
// refused through `in`, naming the field "bots".
void read_table_bots(ConfigReader& in, int seats, std::optional<TableBots>& out);

} // namespace felt::protocol
