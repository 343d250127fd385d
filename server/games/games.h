// The games a table can be, one registry line each (games.cpp), and all the rest of the server
// needs of each, in one file a game (poker.cpp, chinese.cpp, leap.cpp): the name a create_table
// gives, how its configuration is decoded (protocol/) and its table made (tables/game.h), and what
// it adds to a finished hand's history. A new game adds a file here and a line in games.cpp.
#pragma once

#include "protocol/config_reader.h"
#include "storage/store.h"
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
    // What the game adds to a finished hand in its history (history::hand): `out` is the hand as
    // the asker (seated at `seat`, or -1) sees it: its config, seats and events; `log` has every
    // event with every card. A replay that checks the record, or the asker's best draw.
    void (*review)(const HandRecord& h, const protocol::json& log, int seat, protocol::json& out);
    // A finished hand as PHH text (engine/poker/phh.h) with the cards `seat` (or -1) may see, or
    // why it does not replay; null for a game PHH cannot record.
    Result<std::string> (*phh)(const HandRecord& h, const protocol::json& config, int seat);
    // A finished hand's lines for the statistics (docs/stats.md), replayed from its record: for
    // the hands finished before they were counted at their end. Null for a game without
    // statistics yet: its hands count as having none.
    Result<std::vector<StatsRow>> (*stats)(const HandRecord& h,
                                           const protocol::json& config) = nullptr;
};

// A replayed hand's statistics rows, by seat, given the accounts that sat there (a seat without
// one is left out) and the kind of the hand (a tournament's when its configuration names one).
std::vector<StatsRow> rows_of(const HandRecord& h, const protocol::json& config,
                              std::vector<std::pair<int, StatsRow>> by_seat);

// A stored hand's events parsed, in order (those that do not parse left out).
protocol::json record_log(const HandRecord& h);

// The game of this name, or null.
const GameEntry* find_game(std::string_view name);
// The game a table is when its request or its stored configuration names none: poker (every
// table before there were other games).
const GameEntry& default_game();
// "poker, chinese, leap, open-face": for messages.
std::string game_names();

// A table the last run left open (Store::left_open), made again with its id and settings, its
// hands numbered on from where they stopped; or why its stored configuration does not decode.
protocol::Outcome<std::shared_ptr<Table>> reopened(const OpenTable& open, Services& services);

// The entries, one file each.
extern const GameEntry kPokerGame, kChineseGame, kLeapGame, kOpenFaceGame;

// A table of a decoded configuration: `game(config)` makes its Game.
template <class Config, class MakeGame>
NewTable table_of(Config config, Services& services, MakeGame game) {
    protocol::json shown = config.to_json();
    return {std::move(shown), [config = std::move(config), &services, game](std::int64_t id) {
                return std::make_shared<Table>(id, game(config), services);
            }};
}

} // namespace felt::server
