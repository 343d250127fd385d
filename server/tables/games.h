// The games a table can be, one registry line each: the name a create_table gives, how its
// configuration is decoded (protocol/) and its Game made (tables/game.h). A new game adds a line
// here.
#pragma once

#include "protocol/config_reader.h"
#include "tables/table.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace felt::server {

// A configuration decoded: what the lobby and the database are shown, and how to make the table
// once its row (and so its id) exists.
struct NewTable {
    protocol::json config;
    std::function<std::shared_ptr<Table>(std::int64_t id)> make;
};

struct GameEntry {
    const char* name;
    protocol::Outcome<NewTable> (*decode)(const protocol::json& request, Services& services);
};

// The game of this name, or null.
const GameEntry* find_game(std::string_view name);
// "poker, chinese, leap": for messages.
std::string game_names();

} // namespace felt::server
