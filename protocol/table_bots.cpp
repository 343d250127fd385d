#include "protocol/table_bots.h"

#include <algorithm>

namespace felt::protocol {

json TableBots::to_json() const {
    return {{"seats", seats}, {"level", level}, {"leave_for_people", leave_for_people}};
}

void read_table_bots(ConfigReader& in, int seats, std::optional<TableBots>& out) {
    const json* j = in.raw("bots");
    if (!j || in.failed()) return;
    if (!j->is_object())
        return in.refuse("bots", "\"bots\" is an object: {\"seats\": N, \"level\": \"fair\", "
                                 "\"leave_for_people\": true}");
    ConfigReader bots(*j, {});
    bots.unknown_as("bots setting", "");
    TableBots b;
    b.seats = static_cast<int>(bots.integer("seats", b.seats, 1, std::max(1, seats - 1)));
    b.level = bots.choice("level", b.level, {"easy", "fair", "strong"});
    b.leave_for_people = bots.boolean("leave_for_people", b.leave_for_people);
    if (auto error = bots.finish()) return in.refuse("bots", "bots: " + error->message);
    out = b;
}

} // namespace felt::protocol
