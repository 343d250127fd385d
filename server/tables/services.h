// What a table uses of the server: storage, metrics, the lobby, the event loop and the workers,
// and two settings. Tables see the server only through it, so that they know nothing of
// connections.
#pragma once

#include "io.h"

#include "chips.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace felt::server {

struct Metrics;
class Storage;
class Lobby;
class Table;

// Who sits at a table that asks for bots (its configuration's "bots"), for the bots' host
// (bots/bot_host.h): told each time its seats change.
struct TableSeating {
    std::int64_t table = 0;
    std::string game; // "poker", "chinese"
    std::weak_ptr<Table> handle;
    int seats = 0;
    std::vector<std::int64_t> seated; // accounts seated or sitting down, and not leaving
    std::vector<std::int64_t> away;   // of those, the ones sitting out
    int bots = 0;                     // the table's "bots": how many at most
    std::string level;                // and how well they play
    bool leave_for_people = true;
    std::int64_t min_buy_in = 0, max_buy_in = 0;
    int decision_ms = 0; // the table's clock: a bot acts well within it
    bool closed = false;
};

struct Services {
    Storage& storage;
    Metrics& metrics;
    Lobby& lobby;
    net::io_context& io;
    net::thread_pool& workers;            // slow work off the event loop
    std::chrono::seconds table_idle{600}; // a table nobody sits at closes after this long
    bool chosen_decks = false;            // tests only: `choose_deck` is allowed
    // An account's balance changed (a buy-in, a top-up, a cash-out): every connection of the
    // account is told. Empty: nobody is told (tests of a table alone).
    std::function<void(std::int64_t account, Chips balance)> balance_changed;
    int tournament_minute_ms = 60'000; // tests only: how long a tournament's minute lasts
    // Where an all-in's odds are worked out: neither a table's strand nor the sign-in pool.
    // None: no odds are told and no all-in EV kept (tests of a table alone).
    net::thread_pool* odds = nullptr;
    // A table that asks for bots has seen its seats change; called on its strand, to hand over.
    // Empty: no bots (tests of a table alone).
    std::function<void(TableSeating)> seating = nullptr;
};

} // namespace felt::server
