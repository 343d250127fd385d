// What a table uses of the server: storage, metrics, the lobby, the event loop and the workers,
// and two settings. Tables see the server only through it, so that they know nothing of
// connections.
#pragma once

#include "io.h"

#include "chips.h"

#include <chrono>
#include <cstdint>
#include <functional>

namespace felt::server {

struct Metrics;
class Storage;
class Lobby;

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
};

} // namespace felt::server
